/* The activity markers, for programs that refer to them without defining them. Parad reads them at
 * compile time only; their values never matter. Weak, so that a program defining its own (as Enzyme
 * programs do: `int enzyme_dup;`) links too. */
#define WEAK __attribute__((weak))

WEAK int parad_dup, parad_const, parad_dupnoneed, parad_out, parad_width, parad_tape, parad_allocated;
WEAK int enzyme_dup, enzyme_const, enzyme_dupnoneed, enzyme_out, enzyme_width, enzyme_tape, enzyme_allocated;
WEAK int parad_vector, parad_scalar, enzyme_vector, enzyme_scalar; /* batch mode (ad/batch.c) */

/* Enzyme's __enzyme_iter(n, step) in code no derivative was generated from (a file compiled without
 * requests): the count itself (ad/iteration_count.c steps it in derivatives). */
WEAK unsigned long long __enzyme_iter(unsigned long long n, unsigned long long step) {
  (void)step;
  return n;
}

/* __parad_checkpoint_loop() in a file compiled without Parad: the loop runs as it is. */
WEAK void __parad_checkpoint_loop(void) {}
