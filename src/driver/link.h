/* Derivatives generated at link time.
 *
 * A derivative request that reaches functions of other files (or calls through function pointers) cannot
 * be generated when its file is compiled: the object then carries its IR and says its requests wait for
 * the link (embed.h). At the link, when some object's requests wait, the IR of every object on the link
 * line that carries it, and of the archive members the program needs, is merged into one module; the
 * usual pipeline (light optimisation, derivatives, the -O pipeline) runs on it, and its one object takes
 * the place of those objects on the link line. Objects without IR (plain clang objects, system libraries)
 * are linked as they are: a derivative that needs their code is refused, or, through a function pointer,
 * stops at run time with a message naming the function. */
#ifndef PARAD_DRIVER_LINK_H
#define PARAD_DRIVER_LINK_H

#include "driver/args.h"

/* line: the inputs and flags of the link, in order (objects, archives, -l, -L, flags). When some input
 * carries requests that wait for the link, replaces the inputs that carry IR by one object compiled with
 * the derivatives (owned by the temporary directory). Returns non-zero when the derivatives are refused
 * or fail (diagnostics printed). */
int link_time_derivatives(const Invocation *inv, StrList *line);

#endif
