#!/usr/bin/env python3
"""List the device images in a CUDA executable or object, one per line:
"elf sm_90" for machine code, "ptx compute_90" for PTX. Reads the ELF's
fatbin sections directly, so it needs no CUDA tools (CI has no cuobjdump).
An executable's runnable image is in .nv_fatbin; relocatable device code
(an -rdc object, or the objects a program was linked from) is in
__nv_relfatbin; pick with --section.
"""
import struct
import sys

FATBIN_MAGIC = 0xBA55ED50
KINDS = {1: "ptx", 2: "elf"}


def section(data, name):
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    def header(i):
        return struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
    strtab = header(shstrndx)
    for i in range(shnum):
        h = header(i)
        start = strtab[4] + h[0]
        if data[start:data.index(b"\0", start)].decode() == name:
            return data[h[4]:h[4] + h[5]]
    return b""


def images(fatbin):
    at = 0
    while at + 16 <= len(fatbin):
        magic, _version, hsize, size = struct.unpack_from("<IHHQ", fatbin, at)
        if magic != FATBIN_MAGIC:
            at += 8  # containers are 8-byte aligned
            continue
        entry, end = at + hsize, at + hsize + size
        while entry < end:
            kind, _u, ehsize, esize = struct.unpack_from("<HHIQ", fatbin, entry)
            arch, = struct.unpack_from("<I", fatbin, entry + 28)
            yield KINDS.get(kind, "kind%d" % kind), arch
            entry += ehsize + esize
        at = end


def main():
    args = sys.argv[1:]
    name = ".nv_fatbin"
    if args[0] == "--section":
        name, args = args[1], args[2:]
    data = open(args[0], "rb").read()
    seen = set()
    for kind, arch in images(section(data, name)):
        line = "%s %s_%d" % (kind, "sm" if kind == "elf" else "compute", arch)
        if line not in seen:
            seen.add(line)
            print(line)
    if not seen:
        sys.exit("%s: no device code in %s" % (args[0], name))


main()
