/* gp_copy_lanes, the loop behind the copy service and unaligned memcpy,
 * and gp_memcpy, against the host's memcpy: every alignment of both ends,
 * sizes around the unrolled strides (8 words, and gp_memcpy's 6), one
 * thread and a "warp" of 32 lanes run one after another. */
#include <stdio.h>
#include <string.h>
#include "gpumpi/shim_string.h"

int main(void)
{
    static unsigned char src[9000], dst[9000], want[9000];
    for (size_t i = 0; i < sizeof src; i++) src[i] = (unsigned char)(i * 131 + 7);
    int failures = 0, cases = 0;
    const size_t sizes[] = {0, 1, 7, 8, 15, 16, 17, 95, 96, 97, 111, 112, 127, 128, 129, 191, 192, 193, 255, 256, 257, 511, 512, 1000, 4096, 4099, 8192};
    for (int width = 0; width <= 32; width = width ? width + 31 : 1) /* 0: gp_memcpy */
        for (int so = 0; so < 16; so++)
            for (int dof = 0; dof < 16; dof++)
                for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
                    size_t n = sizes[k];
                    memset(dst, 0xee, sizeof dst);
                    memset(want, 0xee, sizeof want);
                    memcpy(want + dof, src + so, n);
                    if (width == 0 && gp_memcpy(dst + dof, src + so, n) != dst + dof) failures++;
                    for (int lane = 0; lane < width; lane++) gp_copy_lanes(dst + dof, src + so, n, lane, width);
                    cases++;
                    if (memcmp(dst, want, sizeof dst)) {
                        if (failures++ < 10)
                            printf("FAIL: width %d (0: gp_memcpy), src offset %d, dst offset %d, %zu bytes\n", width, so, dof, n);
                    }
                }
    printf("copy: %d cases, %d failures\n", cases, failures);
    return failures != 0;
}
