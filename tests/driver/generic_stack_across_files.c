// The generic stack of rev/generic_stack_two_kinds.c as a library in a file of its own
// (Inputs/generic_stack/stack.c), used for doubles, records of doubles and pointers by that test's
// program: the link splits its push and pop per kind, as within one file. Against central finite
// differences (1e-6) and the tangent against the gradient (1e-12), file by file at -O2, and at -O0 in
// one command.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %parad-cc %cflags -DSTACK_LIBRARY -I%S/Inputs/generic_stack -c %S/../rev/generic_stack_two_kinds.c -o %t/main.o
// RUN: %parad-cc %cflags -c %S/Inputs/generic_stack/stack.c -o %t/stack.o
// RUN: %parad-cc %t/main.o %t/stack.o -o %t/prog -lm && %t/prog
// RUN: %parad-cc -O0 -I%S/../include -DSTACK_LIBRARY -I%S/Inputs/generic_stack %S/../rev/generic_stack_two_kinds.c %S/Inputs/generic_stack/stack.c -o %t/prog0 -lm && %t/prog0
