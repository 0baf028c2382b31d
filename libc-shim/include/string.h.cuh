/* <string.h> for converted code. */
#include "gpumpi/shim_prelude.h"
#ifndef GPUMPI_STRING_H_CUH
#define GPUMPI_STRING_H_CUH
#define memcpy gp_memcpy
#define memmove gp_memmove
#define memset gp_memset
#define memcmp gp_memcmp
#define memchr gp_memchr
#define strlen gp_strlen
#define strnlen gp_strnlen
#define strcmp gp_strcmp
#define strncmp gp_strncmp
#define strcpy gp_strcpy
#define strncpy gp_strncpy
#define strcat gp_strcat
#define strncat gp_strncat
#define strchr gp_strchr
#define strrchr gp_strrchr
#define strstr gp_strstr
#endif
