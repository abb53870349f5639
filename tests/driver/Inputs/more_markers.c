/* A second file of the program that defines the markers too, as Enzyme programs do in every file. */
int enzyme_dup, enzyme_const, enzyme_out;
int parad_const;
double shifted(double x) { return x + 0.5; }
