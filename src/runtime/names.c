/* Names in the runtime's messages (names.h). */
#include "names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libstdc++'s demangler, where the program links it (a C++ program): C++ names as the source spells them. */
extern char *__cxa_demangle(const char *mangled, char *out, size_t *length, int *status) __attribute__((weak));

void __parad_rt_quoted_name(char *out, size_t size, const char *name) {
  int status = -1;
  char *plain = !strncmp(name, "_Z", 2) && __cxa_demangle ? __cxa_demangle(name, NULL, NULL, &status) : NULL;
  if (plain && !status) snprintf(out, size, "'%s' (%s)", plain, name);
  else snprintf(out, size, "'%s'", name);
  free(plain);
}
