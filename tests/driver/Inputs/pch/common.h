// A project's common header, precompiled: it includes parad.h.
#include <math.h>
#include "parad.h"
static inline double sq(double x) { return x * x; }
