/* <string.h> for converted code. */
#include "gpumpi/shim_prelude.h"
#ifndef GPUMPI_STRING_H_CUH
#define GPUMPI_STRING_H_CUH
#define memcpy gp_memcpy
#define memmove gp_memmove
#define memset gp_memset
#define memcmp gp_memcmp
#define memchr gp_memchr
#define memrchr gp_memrchr
#define mempcpy gp_mempcpy
#define memccpy gp_memccpy
#define strlen gp_strlen
#define strnlen gp_strnlen
#define strcmp gp_strcmp
#define strncmp gp_strncmp
#define strcoll gp_strcoll
#define strxfrm gp_strxfrm
#define strcpy gp_strcpy
#define strncpy gp_strncpy
#define stpcpy gp_stpcpy
#define stpncpy gp_stpncpy
#define strlcpy gp_strlcpy
#define strlcat gp_strlcat
#define strcat gp_strcat
#define strncat gp_strncat
#define strchr gp_strchr
#define strrchr gp_strrchr
#define strstr gp_strstr
#define strcasestr gp_strcasestr
#define strspn gp_strspn
#define strcspn gp_strcspn
#define strpbrk gp_strpbrk
#define strtok gp_strtok
#define strtok_r gp_strtok_r
#define strsep gp_strsep
#define strdup gp_strdup
#define strndup gp_strndup
#define strerror gp_strerror
#define strerror_r gp_strerror_r
#define memmem gp_memmem
#define strchrnul gp_strchrnul
#define rawmemchr gp_rawmemchr
#define explicit_bzero gp_explicit_bzero
#define strsignal gp_strsignal
/* glibc's <string.h> also declares the strings.h functions */
#include "strings.h.cuh"
#endif
