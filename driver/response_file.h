/* Command-line arguments read from @files. */
#ifndef GPUMPI_RESPONSE_FILE_H
#define GPUMPI_RESPONSE_FILE_H

/* Replaces every @file argument by the words in the file. -1 (with a
 * message) if one cannot be read. */
int gp_expand_response_files(int *argc, char ***argv);

#endif
