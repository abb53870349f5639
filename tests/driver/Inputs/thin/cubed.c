/* A member of a thin archive (driver/thin_archive.c). */
double cubed(double x) { return x * x * x; }
