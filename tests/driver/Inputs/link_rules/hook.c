// The optional hook of optional_hook.c, in an archive: ld takes it only where the program asks for it.
double extra(double x) { return 5 * x; }
