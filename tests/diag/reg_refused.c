// Registrations Parad cannot follow are refused where they are made, rather than ignored: a function
// registered as like a function Parad knows no rule for, or of another shape than the one named, an
// allocation function whose size index is not an integer argument, and Enzyme's inactive_noblock
// functions, which Parad does not implement.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
extern double __enzyme_autodiff(void *, ...);

// CHECK-DAG: reg_refused.c:[[@LINE+1]]: error: '__enzyme_function_like': Parad cannot differentiate 'my_gamma' as 'no_such_function'
double my_gamma(double x) { return x; }
void *__enzyme_function_like[2] = {(void *)my_gamma, (void *)"no_such_function"};

// CHECK-DAG: reg_refused.c:[[@LINE+1]]: error: '__enzyme_function_like_pow': Parad cannot differentiate 'my_pow' as 'pow'
double my_pow(double x) { return x; }
void *__enzyme_function_like_pow[2] = {(void *)my_pow, (void *)"pow"};

// CHECK-DAG: reg_refused.c:[[@LINE+1]]: error: Parad cannot differentiate 'my_tanh' as 'tanhh'
__attribute__((enzyme_function_like("tanhh"))) double my_tanh(double x) { return x; }

// CHECK-DAG: reg_refused.c:[[@LINE+1]]: error: '__enzyme_allocation_like': the size of 'my_alloc' must be one of its integer arguments, by index from 0
void *my_alloc(double scale, int n) { (void)scale, (void)n; return 0; }
void *__enzyme_allocation_like[4] = {(void *)my_alloc, (void *)0, (void *)"-1", (void *)0};

// CHECK-DAG: reg_refused.c:[[@LINE+1]]: error: '__enzyme_inactivenoblockfn': Parad does not implement Enzyme's inactive_noblock functions
double quiet(double x) { return x; }
void *__enzyme_inactivenoblockfn[] = {(void *)quiet};

static double g(double x) { return my_gamma(x) + my_pow(x) + my_tanh(x) + quiet(x); }

int main(void) { return (int)__enzyme_autodiff((void *)g, 1.0); }
