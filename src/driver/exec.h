/* Running the clang steps, and the temporary directory their intermediate files live in. */
#ifndef PARAD_DRIVER_EXEC_H
#define PARAD_DRIVER_EXEC_H

#include <stdbool.h>
#include <stdio.h>

#include "driver/args.h"

/* Runs argv (NULL-terminated list in a StrList without the NULL); returns its exit status, or 127 when it
 * cannot be started. With verbose, echoes the command first. */
int exec_run(const StrList *argv, bool verbose);
/* The same, with the command's standard error kept in *err (the caller prints it and frees it). */
int exec_run_keeping_stderr(const StrList *argv, bool verbose, char **err);
/* Replaces this process with argv (the pass-through case). Only returns on failure. */
int exec_replace(const StrList *argv);
/* A fresh file name in the temporary directory (made on first use, removed at exit). */
char *exec_temp_path(const char *stem, const char *ext);
/* The same, for a name that must live until the process ends (on a command line built for later): the
 * list of temporary files owns it. */
const char *exec_temp_path_kept(const char *stem, const char *ext);
/* Copies in to out (either may be NULL: a file that did not open), closing out unless it is the standard
 * output. False on any failure. */
bool exec_copy_stream(FILE *in, FILE *out);
/* Where Parad is installed: the directory above the one parad-cc is in (holds include/ and lib/). */
const char *exec_parad_root(void);
/* The clang the pipeline uses: $PARAD_CLANG, else the one Parad was built against; as parad-c++, the
 * clang++ beside it (C++'s driver: .c files compiled as C++, the link with the C++ library). */
const char *exec_clang(void);
void exec_set_cxx(bool on);
/* An LLVM tool beside that clang (llvm-objcopy). */
const char *exec_llvm_tool(const char *name);

#endif
