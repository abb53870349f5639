/* A member nothing calls, which --whole-archive links for its constructor (driver/whole_archive.c). */
int registered;
__attribute__((constructor)) static void enrol(void) { registered = 7; }
