/* Derivative rules for math functions: libm calls and the LLVM intrinsics clang emits for them.
 *
 * A rule is data: for y = f(x0, x1, ...) it gives the partial derivative dy/dxi of each argument as a
 * postfix expression over the arguments (x0, x1, x2) and the result (r). Forward mode combines them as
 * dy = sum_i dy/dxi * dxi; reverse mode as dxi += dy/dxi * dy. The table is in rules_table.c; the
 * expression language is compiled to IR by rules.c. */
#ifndef PARAD_RULES_RULES_H
#define PARAD_RULES_RULES_H

#include <llvm-c/Core.h>
#include <stdbool.h>

/* A vector reduction (llvm.vector.reduce.*) folds the lanes of its last argument into one float, from a
 * start value where it has one: its partials depend on every lane, so they are computed lane by lane
 * (rule_reduce_partials) rather than by an expression. */
typedef enum { REDUCE_NONE, REDUCE_SUM, REDUCE_PRODUCT, REDUCE_EXTREMUM } ReduceOp;

/* A second result written through the last argument, whose derivative is zero (frexp's exponent, modf's
 * integral part, remquo's quotient bits): its shadow is reset in forward mode and its adjoint discarded
 * in reverse mode, since the memory it overwrites may have held active data. */
typedef enum { WRITES_NONE, WRITES_INT, WRITES_RESULT_TYPE } WrittenOutput;

typedef struct {
  const char *libm;       /* the double libm name ("sin"); float and long double add 'f' and 'l' */
  const char *intrinsic;  /* the LLVM intrinsic ("llvm.sin"), or NULL when there is none */
  unsigned nargs;
  /* Postfix expression per argument. "0": derivative zero (floor, ...). NULL: the argument is an
   * integer and has no derivative (the exponent of powi); for a reduction, see below. */
  const char *partial[3];
  ReduceOp reduce;
  WrittenOutput writes;
  /* Each partial is 1 or 0, choosing an argument (fmin, fmax): the derivative goes to the chosen one by a
   * select, so that an infinite or NaN derivative of the result reaches no other as 0 times it. */
  bool chooses;
  /* A partial may be infinite where the function is finite (sqrt at 0): a derivative of exactly zero
   * coming in gives zero, not 0 times infinity (a clamped input, fmax(x, 0), flat in x there). */
  bool unbounded;
} MathRule;

extern const MathRule math_rules[];
extern const unsigned math_rule_count;

/* The rule for a call instruction, matching libm names (sin, sinf, sinl) and intrinsics (llvm.sin.*),
 * or NULL when the callee has no rule. */
const MathRule *rule_for_call(LLVMValueRef call);
/* The rule for a name: "sin", "sinf", "llvm.sin.f64", ... */
const MathRule *rule_for_name(const char *name);

/* Emits dy/dx_i at the builder's position. args are the primal arguments, result the primal result;
 * their floating-point type (scalar or vector) is the type of every intermediate; its operations take the
 * fast-math flags of `like` (the primal call, or NULL). Returns NULL when the partial is zero, so that
 * callers can skip the work. */
LLVMValueRef rule_emit_partial(LLVMBuilderRef b, const MathRule *rule, unsigned i, LLVMValueRef *args,
                               LLVMValueRef result, LLVMValueRef like);

/* A derivative d carried through a partial: d * partial, or as the rule says (chooses: d where the partial
 * picks the argument, else 0; unbounded, or strong_zero asked: 0 where d is 0). Forward mode applies it to
 * a tangent, reverse mode to the result's adjoint; d and partial have one type. */
LLVMValueRef rule_carry(LLVMBuilderRef b, const MathRule *rule, LLVMValueRef partial, LLVMValueRef d, bool strong_zero);
/* carried where d is not zero, else zero: a derivative d carried through a partial that may be infinite. */
LLVMValueRef rule_zero_where_zero(LLVMBuilderRef b, LLVMValueRef d, LLVMValueRef carried);

/* Does partial i refer to argument k (0..2), or to the result (k = 'r')? The reverse sweep keeps only
 * the values the partials use. */
bool rule_partial_uses(const MathRule *rule, unsigned i, int k);

/* Whether argument i of a call with this rule has a derivative (not an integer argument). */
bool rule_argument_active(const MathRule *rule, unsigned i);

/* The type of what the call writes through its last argument (rule->writes), or NULL when it writes
 * nothing. */
LLVMTypeRef rule_written_type(const MathRule *rule, LLVMValueRef call);

/* A reduction r = reduce(s, v) (s: the start value, NULL for the extrema, which have none): emits the
 * partials dr/ds (a float; NULL without s) and dr/dv (a vector like v) at the builder. Which of s, v and r
 * it reads: rule_reduce_uses; the others may be NULL. */
void rule_reduce_partials(LLVMBuilderRef b, const MathRule *rule, LLVMValueRef s, LLVMValueRef v, LLVMValueRef r,
                          LLVMValueRef *ds, LLVMValueRef *dv);
/* k: 's', 'v' or 'r'. */
bool rule_reduce_uses(const MathRule *rule, int k);

/* Checks the whole table parses; returns the number of bad entries and names them on stderr.
 * Run by the tool's self-test. */
int rules_self_check(void);

#endif
