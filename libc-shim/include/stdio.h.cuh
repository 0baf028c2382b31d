/* <stdio.h> for converted code. */
#include "gpumpi/shim_prelude.h"
#ifndef GPUMPI_STDIO_H_CUH
#define GPUMPI_STDIO_H_CUH
#undef stdin
#undef stdout
#undef stderr
#define FILE gp_FILE
#define stdin (gp_stdin())
#define stdout (&gp_std_files[1])
#define stderr (&gp_std_files[2])
#define printf gp_printf
#define vprintf gp_vprintf
#define fprintf gp_fprintf
#define vfprintf gp_vfprintf
#define sprintf gp_sprintf
#define vsprintf gp_vsprintf
#define snprintf gp_snprintf
#define vsnprintf gp_vsnprintf
#define puts gp_puts
#define fputs gp_fputs
#undef putchar
#define putchar gp_putchar
#undef putc
#define putc gp_fputc
#define fputc gp_fputc
#define fwrite gp_fwrite
#define fflush gp_fflush
#define fopen gp_fopen
#define fclose gp_fclose
#define fread gp_fread
#define fgets gp_fgets
#define fgetc gp_fgetc
#undef getc
#define getc gp_fgetc
#undef getchar
#define getchar gp_getchar
#define ungetc gp_ungetc
#define fseek gp_fseek
#define ftell gp_ftell
#define rewind gp_rewind
#undef feof
#define feof gp_feof
#undef ferror
#define ferror gp_ferror
#define clearerr gp_clearerr
#define remove gp_remove
#define rename gp_rename
#define tmpfile gp_tmpfile
#define popen gp_popen
#define pclose gp_pclose
#define fileno gp_fileno
#define fscanf gp_fscanf
#define vfscanf gp_vfscanf
#define scanf gp_scanf
#define vscanf gp_vscanf
#define setvbuf gp_setvbuf
#define setbuf gp_setbuf
#define perror gp_perror
#define sscanf gp_sscanf
#define vsscanf gp_vsscanf
#endif
