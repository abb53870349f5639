/* C++ at run time. */
#include <stdio.h>
#include <stdlib.h>

/* Where differentiated code would have thrown (ad/body.h): a derivative cannot go on past it. */
void __parad_rt_thrown(const char *where) {
  fprintf(stderr, "parad: a C++ exception was thrown at %s while a derivative was being computed; Parad "
                  "differentiates the path on which nothing throws, and stops here\n", where);
  abort();
}
