/* GNU and BSD string functions programs use: memmem, strchrnul, rawmemchr,
 * explicit_bzero, strsignal. */
#include "gpumpi/shim_string.h"
#include "gpumpi/format.h"
#include "libc_state.h"

GPUMPI_FN void *gp_memmem(const void *hay, size_t n, const void *needle, size_t m)
{
    const unsigned char *h = (const unsigned char *)hay, *s = (const unsigned char *)needle;
    if (m == 0) return (void *)h;
    for (size_t i = 0; i + m <= n; i++)
        if (h[i] == s[0] && gp_memcmp(h + i, s, m) == 0) return (void *)(h + i);
    return 0;
}

GPUMPI_FN char *gp_strchrnul(const char *s, int c)
{
    while (*s && *s != (char)c) s++;
    return (char *)s;
}

GPUMPI_FN void *gp_rawmemchr(const void *s, int c)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p != (unsigned char)c) p++;
    return (void *)p;
}

GPUMPI_FN void gp_explicit_bzero(void *p, size_t n)
{
    volatile unsigned char *d = (volatile unsigned char *)p;
    while (n--) *d++ = 0;
}

/* glibc's descriptions of the Linux signals */
GPUMPI_FN char *gp_strsignal(int sig)
{
    static const char *const names[] = {0, "Hangup", "Interrupt", "Quit", "Illegal instruction",
                                        "Trace/breakpoint trap", "Aborted", "Bus error", "Floating point exception",
                                        "Killed", "User defined signal 1", "Segmentation fault",
                                        "User defined signal 2", "Broken pipe", "Alarm clock", "Terminated",
                                        "Stack fault", "Child exited", "Continued", "Stopped (signal)", "Stopped",
                                        "Stopped (tty input)", "Stopped (tty output)", "Urgent I/O condition",
                                        "CPU time limit exceeded", "File size limit exceeded",
                                        "Virtual timer expired", "Profiling timer expired", "Window changed",
                                        "I/O possible", "Power failure", "Bad system call"};
    if (sig > 0 && sig < 32) return (char *)names[sig];
    gp_libc_state *L = gp_libc();
    if (sig >= 34 && sig <= 64)
        gp_snprintf(L->strerror_buf, sizeof L->strerror_buf, "Real-time signal %d", sig - 34);
    else
        gp_snprintf(L->strerror_buf, sizeof L->strerror_buf, "Unknown signal %d", sig);
    return L->strerror_buf;
}
