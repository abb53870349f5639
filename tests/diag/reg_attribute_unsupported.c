// Attributes of Enzyme's that parad-cc cannot honour (clang drops them, so the derivative would silently
// differ from Enzyme's) are refused at their file:line: the C23 spellings [[enzyme::inactive]] and
// [[enzyme_inactive]] (Parad honours __attribute__((enzyme_inactive))), and an attribute it does not
// implement (enzyme_inactive_noblock). Enzyme's hints that change no value (enzyme_nofree) and other
// attributes clang does not know stay warnings.
// RUN: rm -f %t && not %parad-cc %cflags -std=c2x %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
extern double __enzyme_autodiff(void *, ...);

// CHECK: reg_attribute_unsupported.c:[[@LINE+1]]:3: error: parad-cc cannot honour the attribute 'enzyme::inactive'
[[enzyme::inactive]] double f1(double x) { return 2 * x; }
// CHECK: reg_attribute_unsupported.c:[[@LINE+1]]:3: error: parad-cc cannot honour the attribute 'enzyme_inactive'
[[enzyme_inactive]] double f2(double x) { return 3 * x; }
// CHECK: reg_attribute_unsupported.c:[[@LINE+1]]:16: error: parad-cc cannot honour the attribute 'enzyme_inactive_noblock'
__attribute__((enzyme_inactive_noblock)) double f3(double x) { return 4 * x; }
// CHECK-NOT: error:{{.*}}enzyme_nofree
__attribute__((enzyme_nofree)) double f4(double x) { return 5 * x; }
// CHECK-NOT: error:{{.*}}no_such_attribute
__attribute__((no_such_attribute)) double f5(double x) { return 6 * x; }

static double g(double x) { return f1(x) + f2(x) + f3(x) + f4(x) + f5(x); }

int main(void) { return (int)__enzyme_autodiff((void *)g, 1.0); }
