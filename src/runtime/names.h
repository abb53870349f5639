/* What the runtime's messages call the program's functions and variables. */
#ifndef PARAD_RUNTIME_NAMES_H
#define PARAD_RUNTIME_NAMES_H

#include <stddef.h>

/* 'name', or for a C++ symbol 'its source name' (name), into out (size bytes). */
void __parad_rt_quoted_name(char *out, size_t size, const char *name);

#endif
