/* A member the derivative needs (driver/whole_archive.c). */
double squared(double x) { return x * x; }
