/* Parts of MPI gpumpi does not provide (part of mpi.h): one-sided
 * communication (MPI_Win_*, MPI_Put, MPI_Get, ...), MPI-IO (MPI_File_*) and
 * dynamic processes (MPI_Comm_spawn, ...). Their types and handles are
 * declared so a program's declarations still parse, and every call
 * (gpumpi/mpi_unsupported_calls.h) is declared and defined: a program that
 * has such calls in code it never runs builds and runs, as under a CPU
 * MPI; a call that runs ends the job with
 *   rank 0: MPI_Win_create: gpumpi does not support one-sided communication ...
 * (runtime/src/mpi_unsupported.cu). g++ and nvcc warn at each call when
 * they build it (deprecated), with the same words. */
#ifndef GPUMPI_MPI_UNSUPPORTED_H
#define GPUMPI_MPI_UNSUPPORTED_H

#define GP_ONE_SIDED_WHAT "one-sided communication (MPI_Win and RMA calls)"
#define GP_MPI_IO_WHAT "MPI-IO (MPI_File calls); use the C library's stdio, which gpumpi provides"
#define GP_DYNAMIC_WHAT "dynamic processes (every rank is a GPU thread started at launch)"

typedef int MPI_Win;
typedef int MPI_File;
#define MPI_WIN_NULL ((MPI_Win)0)
#define MPI_FILE_NULL ((MPI_File)0)
#define MPI_LOCK_EXCLUSIVE 234
#define MPI_LOCK_SHARED 235
#define MPI_MODE_NOCHECK 1024
#define MPI_MODE_NOSTORE 2048
#define MPI_MODE_NOPUT 4096
#define MPI_MODE_NOPRECEDE 8192
#define MPI_MODE_NOSUCCEED 16384
#define MPI_MODE_RDONLY 2
#define MPI_MODE_RDWR 8
#define MPI_MODE_WRONLY 4
#define MPI_MODE_CREATE 1
#define MPI_MODE_EXCL 64
#define MPI_MODE_DELETE_ON_CLOSE 16
#define MPI_MODE_UNIQUE_OPEN 32
#define MPI_MODE_APPEND 128
#define MPI_MODE_SEQUENTIAL 256
#define MPI_SEEK_SET 600
#define MPI_SEEK_CUR 602
#define MPI_SEEK_END 604
#define MPI_ARGV_NULL ((char **)0)
#define MPI_ARGVS_NULL ((char ***)0)
#define MPI_ERRCODES_IGNORE ((int *)0)

/* one-sided communication */
#define GP_UNSUPPORTED_CALL(kind, name, params)                                                           \
    __attribute__((deprecated("gpumpi does not support " GP_##kind##_WHAT ": a call ends the job")))        \
    GPUMPI_FN int name params;
#include "gpumpi/mpi_unsupported_calls.h"
#undef GP_UNSUPPORTED_CALL



#endif
