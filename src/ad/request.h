/* What the user asked for at one call site, in canonical form.
 *
 * The user's call
 *     __parad_fwddiff((void *)f, parad_dup, x, dx, parad_const, n)
 * becomes, in ad_prepare,
 *     call @__parad.request.3(ptr @f, ptr %x, ptr %dx, i32 %n)
 * where the declaration @__parad.request.3 carries the mode, the width and one activity letter per
 * parameter of f as string attributes, and every argument already has the type of its parameter.
 * Each parameter takes its value, then `width` shadows when its letter is 'd' or 'n'. Split mode adds,
 * after the parameters: for __parad_reverse the adjoint of an active result, then the tape; for a tape in
 * a user buffer (Enzyme's enzyme_allocated/enzyme_tape), the buffer. */
#ifndef PARAD_AD_REQUEST_H
#define PARAD_AD_REQUEST_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "ir/valuemap.h"

typedef enum { MODE_FORWARD, MODE_REVERSE, MODE_AUGMENT, MODE_REVERSE_SPLIT } DiffMode;

/* Activity letters, one per parameter. */
enum {
  ACT_CONST = 'c',     /* no derivative */
  ACT_DUP = 'd',       /* value and shadow(s) */
  ACT_DUPNONEED = 'n', /* value and shadow(s); the primal result is not needed */
  ACT_OUT = 'o',       /* reverse mode: an active scalar whose gradient is returned */
};

#define REQUEST_PREFIX "__parad.request."

typedef struct {
  LLVMValueRef call; /* the canonical call */
  DiffMode mode;
  LLVMValueRef fn;   /* the function to differentiate */
  unsigned width;
  char *activity;    /* one letter per parameter of fn, NUL-terminated */
  bool sret;         /* the result is written through the first argument, not returned */
  bool tape_indirect; /* split mode: the tape handle lives in a user buffer (the last argument) */
  const char *entry;  /* the user's spelling of the entry point, for messages */
  unsigned first_arg; /* index of the first argument for fn's parameters in the call */
  char *out_layout;   /* reverse mode: where C puts the gradients of structs passed in registers in the
                         call's result, "offset,...;size;align" (NULL: as the gradients' struct has them) */
  bool primal_return; /* forward mode: the call returns fn's result, then its tangents (enzyme_primal_return) */
} Request;

/* The markers a program defines (int enzyme_dup;) become weak definitions, so that several files of a
 * program may each define them, as with Enzyme (clang's -fno-common would make them clash). Returns how
 * many. */
int request_weaken_markers(LLVMModuleRef m);

/* A function of the file that makes a request for a function its caller passes it (a test's helper
 * `check(f, x, n)`, `__parad_autodiff((void *)f, ...)` inside) names no function until it is inlined:
 * such functions are marked always-inline (their noinline and optnone dropped), for the inliner to run
 * before the requests are read. Whether any was marked. */
bool request_inline_forwarders(LLVMModuleRef m);

/* Requests whose function is a pointer that no function of the module fits (ad/request.c, "a function
 * chosen through a pointer"), left as the program wrote them: they wait for the link, where the program's
 * other files may hold it. Returns how many; with report, refuses each. */
int request_waiting(LLVMModuleRef m, bool report);

/* Parses the user's calls (ad_prepare); each returns the number of errors. */
int request_canonicalise_all(LLVMModuleRef m);
/* Whether a function name is Enzyme's C++ spelling of an entry point (a template's mangled name). */
bool request_is_cxx_entry_name(const char *name);
/* Reads a canonical call back; false (with a diagnostic) when it is malformed. */
bool request_decode(LLVMValueRef call, Request *out);
void request_free(Request *r);
bool request_is_canonical_call(LLVMValueRef call);
/* The functions the requests of m differentiate and those they call or pass on (a region's body to the
 * OpenMP runtime) or may call through a pointer (functions of tables of its type), into out (an initialised map, each function its own value). */
void request_reached_functions(LLVMModuleRef m, ValueMap *out);
/* The same from one function: fn and what it calls or passes on. */
void request_functions_from(LLVMValueRef fn, ValueMap *out);
/* The argument of a canonical call that holds the function to differentiate. */
unsigned request_fn_arg(LLVMValueRef call);
/* The call-site argument index of parameter p's value; its shadows follow it. */
unsigned request_arg_index(const Request *r, unsigned p);
const char *request_mode_name(DiffMode m);
/* Request call `call` becomes a choice between itself and the same request of function `other`:
 *     head: (left open: the caller adds the test and branches to plain or to other)
 *     plain: call; other: call of `other`, same arguments; join: a phi of the two results
 * Both calls are `nomerge`: the optimiser would otherwise make them one call of a chosen function, which
 * no request can be. */
typedef struct {
  LLVMBasicBlockRef head, plain, other, join;
} RequestChoice;
RequestChoice request_choice(LLVMValueRef call, LLVMValueRef other);
/* Converts a call-site argument to the parameter's type the way C would have passed it without the
 * variadic promotions; NULL when the types are not related. */
LLVMValueRef request_convert_argument(LLVMBuilderRef b, LLVMValueRef v, LLVMTypeRef to);
/* Enzyme's __enzyme_batch calls, each made the calls of its lanes (ad_prepare, before the requests are
 * parsed; batch.c). Returns the number of errors. */
int batch_lower_all(LLVMModuleRef m);

#endif
