/* Gradients of functions whose pointer parameters are apart (apart.h).
 *
 * The check is a function of the request's arguments: the function's parameters, then one pointer per
 * parameter (its shadow, or null). It bounds, for each object the function and the regions it forks
 * reach (a parameter, a global), the offsets of the bytes accessed there, lo and hi, as 64-bit signed
 * values computed from the arguments: an offset is a sum of indices times sizes, an index a span
 * (apart_spans.c). A shadow is reached at the offsets its parameter is, and written. Two objects must not
 * overlap where either is written, and what the arithmetic assumed must hold. Bounds that
 * over-approximate can only cost the choice, never a wrong one. */
#include "ad/apart.h"

#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/request.h"
#include "analysis/calls.h"
#include "ir/cfg.h"
#include "ir/ir.h"
#include "ad/apart_bounds.h"
#include "omp/omp.h"

#define CHECK_PREFIX "__parad.apart."

/* ---- the choice at the request ---- */

static unsigned pointer_params(LLVMValueRef fn, unsigned *restricted) {
  unsigned n = 0;
  *restricted = 0;
  for (unsigned p = 0, np = LLVMCountParams(fn); p < np; p++) {
    if (!ir_is_ptr(LLVMTypeOf(LLVMGetParam(fn, p)))) continue;
    n++;
    if (LLVMGetEnumAttributeAtIndex(fn, p + 1, ir_attr_kind("noalias"))) ++*restricted;
  }
  return n;
}

static void set_string_attr(LLVMValueRef fn, const char *key, const char *value) {
  LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(c, key, (unsigned)strlen(key), value, (unsigned)strlen(value)));
}

/* A string attribute's value (the caller frees it), or NULL. */
static char *string_attr(LLVMValueRef fn, const char *key) {
  LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, key, (unsigned)strlen(key));
  unsigned len;
  const char *v = a ? LLVMGetStringAttributeValue(a, &len) : NULL;
  return v ? xasprintf("%.*s", (int)len, v) : NULL;
}

/* fn's copy with every pointer parameter noalias, made once per function. */
static LLVMValueRef apart_copy(LLVMValueRef fn) {
  char *name = xasprintf("%s.apart", LLVMGetValueName(fn));
  LLVMValueRef copy = LLVMGetNamedFunction(LLVMGetGlobalParent(fn), name);
  if (!copy) {
    ValueMap vm;
    vmap_init(&vm);
    copy = ir_clone_function(fn, name, &vm);
    vmap_free(&vm);
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
    for (unsigned p = 0, np = LLVMCountParams(copy); p < np; p++)
      if (ir_is_ptr(LLVMTypeOf(LLVMGetParam(copy, p))))
        LLVMAddAttributeAtIndex(copy, p + 1, LLVMCreateEnumAttribute(c, ir_attr_kind("noalias"), 0));
  }
  free(name);
  return copy;
}

/* The request call becomes: if (check(arguments)) request(copy) else request(fn). */
static void choose(Request *r, LLVMValueRef copy, unsigned serial) {
  LLVMValueRef call = r->call, fn = r->fn;
  LLVMModuleRef m = LLVMGetGlobalParent(fn);
  LLVMContextRef c = LLVMGetModuleContext(m);
  unsigned np = LLVMCountParams(fn);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), *types = xcalloc(2 * np + 1, sizeof *types);
  LLVMValueRef *args = xcalloc(2 * np + 1, sizeof *args);
  for (unsigned p = 0; p < np; p++) {
    unsigned k = request_arg_index(r, p);
    bool dup = r->activity[p] == ACT_DUP || r->activity[p] == ACT_DUPNONEED;
    types[p] = LLVMTypeOf(LLVMGetParam(fn, p)), args[p] = LLVMGetArgOperand(call, k);
    types[np + p] = ptr;
    args[np + p] = dup && ir_is_ptr(types[p]) ? LLVMGetArgOperand(call, k + 1) : LLVMConstNull(ptr);
  }
  char *name = xasprintf(CHECK_PREFIX "%u", serial);
  LLVMTypeRef check_type = LLVMFunctionType(LLVMInt1TypeInContext(c), types, 2 * np, 0);
  LLVMValueRef check = LLVMAddFunction(m, name, check_type); /* a declaration until apart_build_checks */
  /* inlined into C++ code with destructors to run, it stays a call (undo replaces calls, not invokes) */
  LLVMAddAttributeAtIndex(check, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, ir_attr_kind("nounwind"), 0));
  set_string_attr(check, "parad-apart-of", LLVMGetValueName(fn));
  set_string_attr(check, "parad-apart-copy", LLVMGetValueName(copy));
  set_string_attr(check, "parad-apart-activity", r->activity);
  free(name);

  RequestChoice ch = request_choice(call, copy);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderAtEnd(b, ch.head);
  LLVMValueRef ok = LLVMBuildCall2(b, check_type, check, args, 2 * np, "apart");
  LLVMInstructionSetDebugLoc(ok, LLVMInstructionGetDebugLoc(call));
  LLVMBuildCondBr(b, ok, ch.other, ch.plain);
  LLVMDisposeBuilder(b);
  free(types);
  free(args);
}

/* PARAD_PLAN=1: why a check could not be built, for Parad's developers. */
bool apart_give_up(LLVMValueRef at, const char *why) {
  if (getenv("PARAD_PLAN")) {
    char *v = LLVMPrintValueToString(at);
    LLVMValueRef fn = LLVMIsAArgument(at) ? LLVMGetParamParent(at) : LLVMGetBasicBlockParent(LLVMGetInstructionParent(at));
    fprintf(stderr, "apart: no check of %s: %s: %.100s\n", LLVMGetValueName(fn), why, v);
    LLVMDisposeMessage(v);
  }
  return false;
}

/* A function no check could be built for, seen before the optimiser: it calls MPI or Parad's runtime,
 * or it or a region it forks uses OpenMP beyond worksharing loops (but static ones with a chunk),
 * barriers, critical sections and reductions. Left as it is, it costs no copy to optimise (copies later
 * undone took about 7% of the compile time of the OpenMP tests). */
/* A function this long (as the front end wrote it, before any optimisation) gets one gradient: generated
 * code (a Mathematica or SymPy expression of thousands of terms, one block) doubled by a second gradient
 * doubled the time clang's back end took on it (45 s against 78 s for 10,000 statements), for records
 * that are few beside its length. The benchmarks' and kernels' functions are under 1,200. */
enum { APART_MAX_INSTRUCTIONS = 5000 };

static bool beyond_check(LLVMValueRef fn, int depth) {
  if (depth > 3) return true;
  unsigned length = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (++length > APART_MAX_INSTRUCTIONS) return !apart_give_up(i, "no copy: a function this long");
      if (!ir_is_call(i)) continue;
      const char *name = ir_called_name(i);
      if (!strncmp(name, "MPI_", 4) || !strncmp(name, "__parad", 7)) return !apart_give_up(i, "no copy: a call");
      if (!omp_is_runtime_call(i)) continue;
      OmpKind k = omp_classify(i);
      LLVMValueRef outlined = k == OMP_FORK ? omp_fork_outlined(i) : NULL;
      if (outlined && beyond_check(outlined, depth + 1)) return true;
      if (k == OMP_FORK ? !outlined
                        : (k != OMP_SCHEDULE && k != OMP_BARRIER && k != OMP_CRITICAL && k != OMP_END_CRITICAL &&
                           k != OMP_REDUCE && k != OMP_END_REDUCE) || omp_is_static_chunked_init(i))
        return !apart_give_up(i, "no copy: an OpenMP construct the check does not follow");
    }
  return false;
}

/* Whether fn, or a region it forks, reads a pointer from memory: a record's array (`W->in` beside `W->out`,
 * of one parameter) is an object of its own. */
static bool reads_pointers(LLVMValueRef fn, int depth) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (LLVMIsALoadInst(i) && ir_is_ptr(LLVMTypeOf(i))) return true;
      LLVMValueRef outlined = depth < 3 && ir_is_call(i) && omp_classify(i) == OMP_FORK ? omp_fork_outlined(i) : NULL;
      if (outlined && reads_pointers(outlined, depth + 1)) return true;
    }
  return false;
}

unsigned apart_version_requests(LLVMModuleRef m) {
  ValueList calls = {0};
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (LLVMIsDeclaration(f) && !strncmp(LLVMGetValueName(f), REQUEST_PREFIX, strlen(REQUEST_PREFIX)))
      for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u))
        if (ir_is_call(LLVMGetUser(u))) vec_push(&calls, LLVMGetUser(u));
  unsigned made = 0;
  for (size_t i = 0; i < calls.len; i++) {
    Request r;
    if (!request_decode(calls.data[i], &r)) continue;
    unsigned restricted, pointers = LLVMIsAFunction(r.fn) && !LLVMIsDeclaration(r.fn) ? pointer_params(r.fn, &restricted) : 0;
    if (r.mode == MODE_REVERSE && r.width == 1 && !r.tape_indirect && (pointers >= 2 || (pointers && reads_pointers(r.fn, 0))) &&
        restricted < pointers &&
        !LLVMIsFunctionVarArg(LLVMGlobalGetValueType(r.fn)) && !beyond_check(r.fn, 0))
      choose(&r, apart_copy(r.fn), made++);
    request_free(&r);
  }
  vec_free(&calls);
  return made;
}

/* ---- the check ---- */

static bool address(Bounds *x, LLVMValueRef p, LLVMValueRef *root, Span *off, int depth);
static bool field(Bounds *x, LLVMValueRef p, LLVMValueRef *root, Span *off, int depth);

/* A pointer that is one of several (a phi, a select: arrays swapped each step, `a = b, b = s`): all of
 * one object, its offset the hull of theirs. A phi met again while its operands are being bounded is
 * skipped: its values are the others' of the cycle, which the first phi's hull takes in. */
static bool choice(Bounds *x, LLVMValueRef p, LLVMValueRef *root, Span *off, int depth) {
  for (unsigned i = 0; i < x->nchoosing; i++)
    if (x->choosing[i] == p) return false;
  if (x->nchoosing == MAX_CHOOSING) return false;
  x->choosing[x->nchoosing++] = p;
  bool phi = LLVMIsAPHINode(p), any = false, ok = true;
  unsigned n = phi ? LLVMCountIncoming(p) : 2;
  for (unsigned i = 0; i < n && ok; i++) {
    LLVMValueRef v = phi ? LLVMGetIncomingValue(p, i) : LLVMGetOperand(p, i + 1), r;
    bool again = false;
    for (unsigned k = 0; k < x->nchoosing; k++) again |= x->choosing[k] == v;
    if (again) continue;
    Span s;
    ok = address(x, v, &r, &s, depth + 1) && (!any || r == *root);
    if (ok) *off = any ? hull(x, *off, s) : s, *root = r, any = true;
  }
  x->nchoosing--;
  return ok && any;
}

/* A pointer counter of a loop: p = start, then p + step bytes each iteration (step constant). Its start
 * and step in *start, *step; NULL where phi is not one. */
static CfgLoop *pointer_induction(Bounds *x, LLVMValueRef phi, LLVMValueRef *start, LLVMValueRef *next, long long *step) {
  Frame *f = apart_frame_of(x, phi);
  CfgLoop *l = f ? apart_loop_at(f, LLVMGetInstructionParent(phi)) : NULL;
  if (!l || !l->preheader || !l->latch || LLVMCountIncoming(phi) != 2 || !ir_is_ptr(LLVMTypeOf(phi))) return NULL;
  *start = *next = NULL;
  for (unsigned i = 0; i < 2; i++) {
    if (LLVMGetIncomingBlock(phi, i) == l->preheader) *start = LLVMGetIncomingValue(phi, i);
    if (LLVMGetIncomingBlock(phi, i) == l->latch) *next = LLVMGetIncomingValue(phi, i);
  }
  if (!*start || !*next || !LLVMIsAGetElementPtrInst(*next) || LLVMGetOperand(*next, 0) != phi || LLVMGetNumOperands(*next) != 2 ||
      !LLVMIsAConstantInt(LLVMGetOperand(*next, 1)) || !LLVMTypeIsSized(LLVMGetGEPSourceElementType(*next)))
    return NULL;
  *step = LLVMConstIntGetSExtValue(LLVMGetOperand(*next, 1)) * (long long)LLVMABISizeOfType(x->td, LLVMGetGEPSourceElementType(*next));
  return *step ? l : NULL;
}

/* A pointer counter's offsets (pointer_induction), tested in the latch's exit against an end of the same
 * object the loop does not change (a reduction's combining loop, `for (p = a; p != a + n; p++)`): between
 * start's and end's, less one step for a test of the next value. A counter that moves with the tested one
 * (the private copy beside the shared array): its start's offsets shifted as the tested one's. One that
 * starts in the function's own memory stays there. */
static bool pointer_counter(Bounds *x, LLVMValueRef phi, LLVMValueRef *root, Span *off, int depth) {
  LLVMValueRef start, next, cmp, r;
  long long step;
  CfgLoop *l = pointer_induction(x, phi, &start, &next, &step);
  Span s, e;
  if (!l || !address(x, start, root, &s, depth + 1)) return false;
  if (!*root) { /* the function's own memory: where in it does not matter */
    *off = s;
    return true;
  }
  Frame *f = apart_frame_of(x, phi);
  LLVMIntPredicate p; /* going on while */
  if (!(cmp = apart_exit_test(f, l, &p))) return false;
  LLVMValueRef a = LLVMGetOperand(cmp, 0), end = LLVMGetOperand(cmp, 1);
  if (LLVMIsAPHINode(end) || (LLVMIsAGetElementPtrInst(end) && LLVMIsAPHINode(LLVMGetOperand(end, 0)) &&
                              LLVMGetInstructionParent(LLVMGetOperand(end, 0)) == l->header))
    a = end, end = LLVMGetOperand(cmp, 0), p = ir_icmp_swapped(p);
  LLVMValueRef tested = LLVMIsAPHINode(a) ? a : LLVMIsAGetElementPtrInst(a) || LLVMIsABinaryOperator(a) ? LLVMGetOperand(a, 0) : NULL;
  if (tested != phi) { /* a sibling's test (a pointer's, or an integer's counting bytes): phi is start + (sibling - its start) */
    LLVMValueRef sib_start, sib_next, sib_root, sib_step_v;
    long long sib_step;
    Span sib, sib_s;
    if (!tested || !LLVMIsAPHINode(tested)) return false;
    if (ir_is_int(LLVMTypeOf(tested))) {
      if (!cfg_induction(&f->cfg, l->body, tested, l->preheader, l->latch, &sib_start, &sib_step_v, &sib_next) ||
          LLVMConstIntGetSExtValue(sib_step_v) != step || !apart_span(x, tested, &sib, depth + 1) || !apart_span(x, sib_start, &sib_s, depth + 1))
        return false;
    } else if (pointer_induction(x, tested, &sib_start, &sib_next, &sib_step) != l || sib_step != step ||
               !pointer_counter(x, tested, &sib_root, &sib, depth + 1) || !address(x, sib_start, &sib_root, &sib_s, depth + 1))
      return false;
    *off = (Span){LLVMBuildSub(x->b, LLVMBuildAdd(x->b, s.lo, sib.lo, ""), sib_s.hi, ""),
                  LLVMBuildSub(x->b, LLVMBuildAdd(x->b, s.hi, sib.hi, ""), sib_s.lo, "")};
    return true;
  }
  bool up = step > 0, on_next = a == next;
  bool strict = p == LLVMIntNE || p == LLVMIntULT || p == LLVMIntSLT || p == LLVMIntUGT || p == LLVMIntSGT;
  bool fits = p == LLVMIntNE || (up ? p == LLVMIntULT || p == LLVMIntULE || p == LLVMIntSLT || p == LLVMIntSLE
                                    : p == LLVMIntUGT || p == LLVMIntUGE || p == LLVMIntSGT || p == LLVMIntSGE);
  if ((a != next && a != phi) || !fits || !apart_invariant(x, f, l, end, 0) || !address(x, end, &r, &e, depth + 1) || r != *root)
    return false;
  if (p != LLVMIntNE) { /* an ordered test stops at the end where the counter steps onto it: one start, one end, a whole number of steps apart */
    require(x, LLVMBuildICmp(x->b, LLVMIntEQ, s.lo, s.hi, ""));
    require(x, LLVMBuildICmp(x->b, LLVMIntEQ, e.lo, e.hi, ""));
    require(x, LLVMBuildICmp(x->b, LLVMIntEQ, LLVMBuildSRem(x->b, LLVMBuildSub(x->b, e.lo, s.lo, ""), k64(x, step), ""), k64(x, 0), ""));
  }
  /* as a counter's last value (counter_values): the end, less a step for a strict test of the next value,
     a step more for an inclusive test of the counter itself */
  long long shift = (strict && !(p == LLVMIntNE && !on_next) ? -step : 0) + (on_next || p == LLVMIntNE ? 0 : step);
  Span last = {LLVMBuildAdd(x->b, e.lo, k64(x, shift), ""), LLVMBuildAdd(x->b, e.hi, k64(x, shift), "")};
  *off = hull(x, s, last);
  return true;
}

/* A pointer p read from an object at a constant offset (Field): the field's key is its root. */
static bool field(Bounds *x, LLVMValueRef p, LLVMValueRef *root, Span *off, int depth) {
  LLVMValueRef parent;
  Span at;
  if (!ir_is_ptr(LLVMTypeOf(p)) || LLVMGetVolatile(p) || LLVMGetOrdering(p) != LLVMAtomicOrderingNotAtomic ||
      !address(x, LLVMGetOperand(p, 0), &parent, &at, depth + 1) || !parent || !LLVMIsAConstantInt(at.lo) || at.lo != at.hi)
    return false;
  long long offset = LLVMConstIntGetSExtValue(at.lo);
  Field *f = NULL;
  for (unsigned k = 0; k < x->nfields && !f; k++)
    if (x->fields[k].parent == parent && x->fields[k].offset == offset) f = &x->fields[k];
  if (!f) {
    if (x->nfields == MAX_OBJECTS) return false;
    f = &x->fields[x->nfields++];
    *f = (Field){.parent = parent, .offset = offset, .key = p};
  }
  *root = f->key, *off = (Span){k64(x, 0), k64(x, 0)};
  return true;
}

static Field *field_of(Bounds *x, LLVMValueRef root) {
  for (unsigned k = 0; k < x->nfields; k++)
    if (x->fields[k].key == root) return &x->fields[k];
  return NULL;
}

/* Whether root's memory has a shadow the check is given: a parameter's passed with one, a field of such. */
static bool shadowed(Bounds *x, LLVMValueRef root, const char *activity) {
  Field *f = field_of(x, root);
  if (f) return shadowed(x, f->parent, activity);
  if (!LLVMIsAArgument(root)) return false;
  char a = activity[apart_param_index(root)];
  return a == ACT_DUP || a == ACT_DUPNONEED;
}

static LLVMValueRef shadow_in_check(Bounds *x, LLVMValueRef root);

/* What the function reads at offset bytes into an object it never writes (base, in the check): read as
 * the check runs; 0 where base is null (an optional record the function then reads nothing of). */
static LLVMValueRef read_at(Bounds *x, LLVMValueRef base, long long offset, LLVMTypeRef t) {
  LLVMValueRef at = LLVMBuildGEP2(x->b, LLVMInt8TypeInContext(LLVMGetModuleContext(x->m)), base, (LLVMValueRef[]){k64(x, offset)}, 1, "");
  return ir_load_unless_null(x->b, base, at, t);
}

LLVMValueRef apart_read_in_check(Bounds *x, LLVMValueRef root, long long offset, LLVMTypeRef t) {
  return read_at(x, apart_root_in_check(x, root), offset, t);
}

/* The pointer field f holds as the check runs, or the one its shadow's memory holds there. */
static LLVMValueRef field_in_check(Bounds *x, Field *f, bool shadow) {
  LLVMValueRef *known = shadow ? &f->shadow_base : &f->base;
  if (!*known)
    *known = read_at(x, shadow ? shadow_in_check(x, f->parent) : apart_root_in_check(x, f->parent), f->offset,
                     LLVMPointerTypeInContext(LLVMGetModuleContext(x->m), 0));
  return *known;
}

static LLVMValueRef shadow_in_check(Bounds *x, LLVMValueRef root) {
  Field *f = field_of(x, root);
  if (f) return field_in_check(x, f, true);
  unsigned np = LLVMCountParams(x->fn);
  return LLVMGetParam(x->check, np + apart_param_index(root));
}

/* The object p points into (a parameter or a global; NULL where it is the function's own memory: a stack
 * slot, a block it allocates) and the span of p's offset from it. False where neither is known. */
static bool address(Bounds *x, LLVMValueRef p, LLVMValueRef *root, Span *off, int depth) {
  if (depth > MAX_DEPTH) return false;
  if (LLVMIsAArgument(p) && LLVMGetParamParent(p) != x->fn) { /* a region's: the fork's argument, or a thread id */
    Frame *f = apart_frame_of(x, p);
    if (f && f->fork && apart_param_index(p) < OMP_OUTLINED_FIRST_PARAM) {
      *root = NULL, *off = (Span){k64(x, 0), k64(x, 0)};
      return true;
    }
    LLVMValueRef given = apart_fork_operand(x, p);
    return given && address(x, given, root, off, depth + 1);
  }
  if (LLVMIsALoadInst(p)) { /* a captured pointer variable */
    Held h;
    if (!apart_held_values(x, LLVMGetOperand(p, 0), p, &h)) return field(x, p, root, off, depth);
    bool any = false;
    for (unsigned k = 0; k < h.nvalues; k++) {
      LLVMValueRef r;
      Span s;
      if (LLVMIsAConstantPointerNull(h.value[k])) continue; /* an optional array (a bias or NULL): nothing read there */
      if (!address(x, h.value[k], &r, &s, depth + 1) || (any && r != *root)) return false;
      *off = any ? hull(x, *off, s) : s, *root = r, any = true;
    }
    if (!any) *root = NULL, *off = (Span){k64(x, 0), k64(x, 0)}; /* only null: no object of the program's */
    return true;
  }
  if (LLVMIsAArgument(p) || LLVMIsAGlobalVariable(p)) {
    *root = p, *off = (Span){k64(x, 0), k64(x, 0)};
    return true;
  }
  if (LLVMIsAAllocaInst(p) || (ir_is_call(p) && call_classify(p, NULL) == CALL_ALLOC)) {
    *root = NULL, *off = (Span){k64(x, 0), k64(x, 0)};
    return true;
  }
  if (LLVMIsAPHINode(p) && pointer_counter(x, p, root, off, depth)) return true;
  if (LLVMIsAPHINode(p) || LLVMIsASelectInst(p)) return choice(x, p, root, off, depth);
  bool is_gep = LLVMIsAGetElementPtrInst(p) || (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr);
  if (!is_gep) {
    LLVMOpcode op = LLVMIsAInstruction(p) ? LLVMGetInstructionOpcode(p) : LLVMIsAConstantExpr(p) ? LLVMGetConstOpcode(p) : LLVMRet;
    bool cast = op == LLVMBitCast || op == LLVMAddrSpaceCast;
    return cast && address(x, LLVMGetOperand(p, 0), root, off, depth + 1);
  }
  if (!address(x, LLVMGetOperand(p, 0), root, off, depth + 1)) return false;
  LLVMTypeRef t = LLVMGetGEPSourceElementType(p);
  for (unsigned i = 1, n = (unsigned)LLVMGetNumOperands(p); i < n; i++) {
    LLVMValueRef idx = LLVMGetOperand(p, i);
    if (i > 1 && LLVMGetTypeKind(t) == LLVMStructTypeKind) {
      unsigned field = (unsigned)LLVMConstIntGetZExtValue(idx);
      LLVMValueRef at = k64(x, (long long)LLVMOffsetOfElement(x->td, t, field));
      *off = (Span){LLVMBuildAdd(x->b, off->lo, at, ""), LLVMBuildAdd(x->b, off->hi, at, "")};
      t = LLVMStructGetTypeAtIndex(t, field);
      continue;
    }
    if (i > 1) {
      if (LLVMGetTypeKind(t) != LLVMArrayTypeKind) return false;
      t = LLVMGetElementType(t);
    }
    Span s;
    if (!LLVMTypeIsSized(t) || !apart_span(x, idx, &s, depth + 1)) return false;
    s = scaled(x, s, (long long)LLVMABISizeOfType(x->td, t));
    *off = (Span){LLVMBuildAdd(x->b, off->lo, s.lo, ""), LLVMBuildAdd(x->b, off->hi, s.hi, "")};
  }
  return true;
}

bool apart_address(Bounds *x, LLVMValueRef p, LLVMValueRef *root, Span *off, int depth) {
  return address(x, p, root, off, depth);
}

/* ---- globals in the check ----
 * A check's reference to a global would be a use of it, which the analyses that make the gradients (they
 * follow a global's uses: may a derivative read it again, does it hold a heap block) take for one of the
 * program's: a global compared in a check (its address made an integer) was taken for one whose address
 * goes anywhere, and its reads were recorded. Until the gradients are made, the check reads the global's
 * address from a placeholder of its own; then the placeholder gives way to the global. */
static ValueList placeholders, placed; /* placeholder i stands for global placed[i] */

static LLVMValueRef global_in_check(Bounds *x, LLVMValueRef global) {
  LLVMValueRef holder = NULL;
  for (size_t i = 0; i < placed.len && !holder; i++)
    if (placed.data[i] == global) holder = placeholders.data[i];
  LLVMTypeRef ptr = LLVMPointerTypeInContext(LLVMGetModuleContext(x->m), 0);
  if (!holder) {
    holder = LLVMAddGlobal(x->m, ptr, CHECK_PREFIX "global");
    LLVMSetInitializer(holder, LLVMConstNull(ptr));
    LLVMSetLinkage(holder, LLVMPrivateLinkage);
    LLVMSetExternallyInitialized(holder, 1); /* never folded to its null */
    vec_push(&placeholders, holder);
    vec_push(&placed, global);
  }
  return LLVMBuildLoad2(x->b, ptr, holder, "");
}

void apart_resolve_globals(void) {
  for (size_t i = 0; i < placeholders.len; i++) {
    LLVMValueRef holder = placeholders.data[i];
    while (LLVMGetFirstUse(holder)) {
      LLVMValueRef load = LLVMGetUser(LLVMGetFirstUse(holder));
      LLVMReplaceAllUsesWith(load, placed.data[i]);
      LLVMInstructionEraseFromParent(load);
    }
    LLVMDeleteGlobal(holder);
  }
  vec_free(&placeholders), vec_free(&placed);
}

LLVMValueRef apart_root_in_check(Bounds *x, LLVMValueRef root) {
  Field *f = field_of(x, root);
  if (f) return field_in_check(x, f, false);
  if (LLVMIsAGlobalVariable(root)) return global_in_check(x, root);
  return LLVMIsAArgument(root) ? LLVMGetParam(x->check, apart_param_index(root)) : root;
}

static Object *object_of(Bounds *x, LLVMValueRef root) {
  for (unsigned k = 0; k < x->nobj; k++)
    if (x->obj[k].root == root) return &x->obj[k];
  return NULL;
}

/* Whether an integer load's value is only used as an integer (an index, a count, a flag): not a float's
 * bits on their way elsewhere, whose adjoint the derivative would add to the shadow of where it was read. */
static bool used_as_integer(LLVMValueRef load) {
  for (LLVMUseRef u = LLVMGetFirstUse(load); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsAInstruction(user)) return false;
    switch (LLVMGetInstructionOpcode(user)) {
    case LLVMSExt: case LLVMZExt: case LLVMTrunc: case LLVMICmp: case LLVMGetElementPtr: case LLVMAdd: case LLVMSub:
    case LLVMMul: case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMSDiv:
    case LLVMUDiv: case LLVMSRem: case LLVMURem: case LLVMSwitch: case LLVMSIToFP: case LLVMUIToFP: break;
    default: return false;
    }
  }
  return true;
}

/* Whether the derivative may write the shadow of what access i (a load, a store) touches: it writes there,
 * or reads a float (whose adjoint goes there). Reading a pointer (a record's field: the shadow's pointer is
 * read) or an integer used as one does not. */
static bool shadow_written_by(LLVMValueRef i) {
  if (!LLVMIsALoadInst(i)) return true;
  LLVMTypeRef t = LLVMTypeOf(i);
  return !(ir_is_ptr(t) || (ir_is_int(t) && used_as_integer(i)));
}

/* Notes an access of `size` bytes (a span, for memset and memcpy) at p. */
static bool access(Bounds *x, LLVMValueRef p, Span size, bool written, bool shadow_written) {
  LLVMValueRef root;
  Span off;
  if (!address(x, p, &root, &off, 0)) return false;
  if (!root) return true;
  Span bytes = {off.lo, LLVMBuildAdd(x->b, off.hi, size.hi, "")};
  Object *o = object_of(x, root);
  if (o) {
    o->bytes = hull(x, o->bytes, bytes);
    o->written |= written, o->shadow_written |= shadow_written;
    return true;
  }
  if (x->nobj == MAX_OBJECTS) return false;
  x->obj[x->nobj++] = (Object){.root = root, .bytes = bytes, .written = written, .shadow_written = shadow_written};
  return true;
}

static bool stays(LLVMValueRef v, int depth, ValueList *seen);

/* Where the pointer a captured variable holds goes: the variable (slot: a local, a region's parameter)
 * is read, stored and passed to regions, and each read must stay. */
static bool stays_held(LLVMValueRef slot, int depth, ValueList *seen) {
  if (ir_list_has(seen, slot)) return true;
  if (depth > MAX_DEPTH) return false;
  vec_push(seen, slot);
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user) && !stays(user, depth + 1, seen)) return false;
    if (LLVMIsALoadInst(user) || (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) != slot) ||
        ir_is_lifetime_marker(user))
      continue;
    LLVMValueRef outlined = apart_is_fork(user) ? omp_fork_outlined(user) : NULL;
    if (!outlined) return false;
    for (unsigned k = OMP_FORK_FIRST_ARG, n = ir_num_call_args(user); k < n; k++) {
      unsigned p = k - OMP_FORK_FIRST_ARG + OMP_OUTLINED_FIRST_PARAM;
      if (LLVMGetArgOperand(user, k) == slot && (p >= LLVMCountParams(outlined) || !stays_held(LLVMGetParam(outlined, p), depth + 1, seen)))
        return false;
    }
  }
  return true;
}

/* Where a pointer parameter goes: only into addresses of loads, stores, memset and memcpy, offsets,
 * comparisons, phis and selects, and into a variable a region reads it from; anything else (a call, a
 * store of the pointer elsewhere, an integer made of it) and the check gives up. */
static bool stays(LLVMValueRef v, int depth, ValueList *seen) {
  if (depth > MAX_DEPTH) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user) || LLVMIsAICmpInst(user)) continue;
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) != v) continue;
    Held h;
    if (LLVMIsAStoreInst(user) && apart_held_group(LLVMGetOperand(user, 1), &h)) {
      for (unsigned k = 0; k < h.nslots; k++)
        if (!stays_held(h.slot[k], depth + 1, seen)) return false;
      continue;
    }
    if ((LLVMIsAPHINode(user) || LLVMIsASelectInst(user)) && ir_list_has(seen, user)) continue;
    if (LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user) || LLVMIsAPHINode(user) ||
        (LLVMIsASelectInst(user) && LLVMGetOperand(user, 0) != v)) {
      if (LLVMIsAPHINode(user) || LLVMIsASelectInst(user)) vec_push(seen, user);
      if (!stays(user, depth + 1, seen)) return false;
      continue;
    }
    if (apart_is_fork(user) && omp_fork_outlined(user)) { /* passed to a region: where it goes there */
      LLVMValueRef outlined = omp_fork_outlined(user);
      for (unsigned k = OMP_FORK_FIRST_ARG, n = ir_num_call_args(user); k < n; k++) {
        unsigned p = k - OMP_FORK_FIRST_ARG + OMP_OUTLINED_FIRST_PARAM;
        if (LLVMGetArgOperand(user, k) == v && (p >= LLVMCountParams(outlined) || !stays(LLVMGetParam(outlined, p), depth + 1, seen)))
          return false;
      }
      continue;
    }
    if (ir_is_call(user)) {
      CallKind k = call_classify(user, NULL);
      if (k == CALL_MEMCPY || k == CALL_MEMSET) continue;
      if (k == CALL_DEBUG) continue;
    }
    return false;
  }
  return true;
}

static bool note_frame(Bounds *x);

/* A call of the OpenMP runtime: a fork's region is followed as code of its own; the schedule, barriers,
 * critical sections and reductions touch only the thread's own memory (its bounds, a reduction's list)
 * and the runtime's (locations, locks: globals). Other constructs are not followed. */
static bool note_runtime_call(Bounds *x, LLVMValueRef call) {
  OmpKind k = omp_classify(call);
  if (k == OMP_FORK) {
    LLVMValueRef outlined = omp_fork_outlined(call);
    if (!outlined || !apart_push_frame(x, outlined, call)) return apart_give_up(call, "a region the check cannot follow");
    bool ok = note_frame(x);
    apart_pop_frame(x);
    return ok;
  }
  if (k != OMP_SCHEDULE && k != OMP_BARRIER && k != OMP_CRITICAL && k != OMP_END_CRITICAL && k != OMP_REDUCE && k != OMP_END_REDUCE)
    return apart_give_up(call, "an OpenMP construct the check does not follow");
  for (unsigned a = 0, n = ir_num_call_args(call); a < n; a++) {
    LLVMValueRef arg = LLVMGetArgOperand(call, a), root;
    Span off;
    if (ir_is_ptr(LLVMTypeOf(arg)) && !LLVMIsAGlobalValue(ir_strip_pointer_casts(arg)) && !(address(x, arg, &root, &off, 0) && !root))
      return apart_give_up(call, "a runtime call given the program's memory");
  }
  return true;
}

static bool note_accesses(Bounds *x) {
  for (LLVMValueRef p = LLVMGetFirstParam(x->fn); p; p = LLVMGetNextParam(p))
    if (ir_is_ptr(LLVMTypeOf(p))) {
      ValueList seen = {0};
      bool ok = stays(p, 0, &seen);
      vec_free(&seen);
      if (!ok) return apart_give_up(p, "a parameter that goes elsewhere than loads and stores");
    }
  return note_frame(x);
}

/* The accesses of the innermost frame's function. */
static bool note_frame(Bounds *x) {
  Cfg *cfg = &x->frames[x->nframes - 1].cfg;
  for (size_t b = 0; b < cfg->blocks.len; b++) {
    apart_guards_at(x, cfg->blocks.data[b]); /* what the way into the block says about its indices */
    for (LLVMValueRef i = LLVMGetFirstInstruction(cfg->blocks.data[b]); i; i = LLVMGetNextInstruction(i)) {
      if (LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i) || LLVMIsAFenceInst(i)) return apart_give_up(i, "an atomic access");
      if (LLVMIsALoadInst(i) || LLVMIsAStoreInst(i)) {
        LLVMTypeRef t = LLVMIsALoadInst(i) ? LLVMTypeOf(i) : LLVMTypeOf(LLVMGetOperand(i, 0));
        LLVMValueRef size = k64(x, (long long)LLVMABISizeOfType(x->td, t));
        if (LLVMGetVolatile(i) ||
            !access(x, LLVMGetOperand(i, LLVMIsALoadInst(i) ? 0 : 1), (Span){size, size}, LLVMIsAStoreInst(i), shadow_written_by(i)))
          return apart_give_up(i, "an access the check cannot bound");
        continue;
      }
      if (!ir_is_call(i)) continue;
      if (omp_is_runtime_call(i)) {
        bool noted = note_runtime_call(x, i);
        apart_guards_at(x, cfg->blocks.data[b]); /* a region followed had its own */
        if (!noted) return false;
        continue;
      }
      CallKind k = call_classify(i, NULL);
      if (k == CALL_MEMCPY || k == CALL_MEMSET) {
        Span len;
        if (!apart_span(x, LLVMGetArgOperand(i, 2), &len, 0) || !access(x, LLVMGetArgOperand(i, 0), len, true, true) ||
            (k == CALL_MEMCPY && !access(x, LLVMGetArgOperand(i, 1), len, false, true)))
          return apart_give_up(i, "a copy the check cannot bound");
        continue;
      }
      /* nothing else may reach memory the function's objects could share: debug and lifetime markers,
         the derivative table's functions, allocation (fresh memory) */
      if (k == CALL_DEBUG || k == CALL_ALLOC || k == CALL_FREE || call_writes_nothing(i)) {
        for (unsigned a = 0, n = ir_num_call_args(i); a < n; a++) {
          LLVMValueRef arg = LLVMGetArgOperand(i, a), root;
          Span off;
          if (ir_is_ptr(LLVMTypeOf(arg)) && k != CALL_DEBUG && !(address(x, arg, &root, &off, 0) && !root))
            return apart_give_up(i, "a call given the program's memory");
        }
        continue;
      }
      return apart_give_up(i, "a call");
    }
  }
  apart_guards_clear(x);
  return true;
}

#define READ_THROUGH_ATTR "parad-apart-read-through"

/* Notes on the copy the parameters whose pointer fields, and those fields' pointer fields, the function
 * reads through point to memory it never writes (apart from all it writes, as the check found); then each
 * such field of a parameter as "parameter:offset" (its record's other fields written). */
static void set_read_through(Bounds *x, LLVMValueRef copy, unsigned long long fields, unsigned long long fields_fields) {
  char *value = xasprintf("%llu %llu", fields, fields_fields);
  for (unsigned k = 0; k < x->nfields; k++) {
    Field *f = &x->fields[k];
    Object *own = object_of(x, f->key);
    if (!LLVMIsAArgument(f->parent) || (own && own->written)) continue;
    char *more = xasprintf("%s %u:%lld", value, apart_param_index(f->parent), f->offset);
    free(value), value = more;
  }
  set_string_attr(copy, READ_THROUGH_ATTR, value);
  free(value);
}

void apart_read_through(LLVMValueRef fn, unsigned long long *fields, unsigned long long *fields_fields) {
  char *v = string_attr(fn, READ_THROUGH_ATTR);
  *fields = *fields_fields = 0;
  if (v && sscanf(v, "%llu %llu", fields, fields_fields) != 2) *fields = *fields_fields = 0;
  free(v);
}

bool apart_field_read_through(LLVMValueRef fn, unsigned param, long long offset) {
  char *v = string_attr(fn, READ_THROUGH_ATTR), *at = v ? strchr(v, ' ') : NULL;
  bool found = false;
  for (at = at ? strchr(at + 1, ' ') : NULL; at && !found; at = strchr(at + 1, ' ')) {
    unsigned p;
    long long o;
    found = sscanf(at + 1, "%u:%lld", &p, &o) == 2 && p == param && o == offset;
  }
  free(v);
  return found;
}

/* Whether objects a and b (byte ranges at their bases) are apart; a null object (an optional array, `if
 * (area) area[t] = a`) is apart from all: the function reaches nothing through it. */
static LLVMValueRef apart(Bounds *x, LLVMValueRef abase, Span a, LLVMValueRef bbase, Span b) {
  LLVMValueRef ia = LLVMBuildPtrToInt(x->b, abase, x->i64, ""), ib = LLVMBuildPtrToInt(x->b, bbase, x->i64, "");
  LLVMValueRef alo = LLVMBuildAdd(x->b, ia, a.lo, ""), ahi = LLVMBuildAdd(x->b, ia, a.hi, "");
  LLVMValueRef blo = LLVMBuildAdd(x->b, ib, b.lo, ""), bhi = LLVMBuildAdd(x->b, ib, b.hi, "");
  LLVMValueRef none = LLVMBuildOr(x->b, LLVMBuildICmp(x->b, LLVMIntEQ, ia, k64(x, 0), ""), LLVMBuildICmp(x->b, LLVMIntEQ, ib, k64(x, 0), ""), "");
  LLVMValueRef beside = LLVMBuildOr(x->b, LLVMBuildICmp(x->b, LLVMIntULE, ahi, blo, ""), LLVMBuildICmp(x->b, LLVMIntULE, bhi, alo, ""), "");
  return LLVMBuildOr(x->b, none, beside, "");
}

/* The check's body from fn's code; false where some access cannot be bounded (its body then says no). */
static bool build(LLVMModuleRef m, LLVMValueRef fn, LLVMValueRef check, LLVMValueRef copy, const char *activity) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  Bounds x = {.m = m, .td = LLVMGetModuleDataLayout(m), .fn = fn, .check = check, .i64 = LLVMInt64TypeInContext(c)};
  x.b = LLVMCreateBuilderInContext(c);
  LLVMSetLinkage(check, LLVMInternalLinkage);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(c, check, "entry");
  LLVMPositionBuilderAtEnd(x.b, entry);
  apart_push_frame(&x, fn, NULL);
  x.ok = LLVMConstInt(LLVMInt1TypeInContext(c), 1, 0);
  bool ok = note_accesses(&x);
  for (unsigned k = 0; k < x.nobj && ok; k++) /* what the check read must be what the function reads */
    for (unsigned s = 0; s < x.nscanned && ok; s++)
      if (x.obj[k].root == x.scanned[s] && x.obj[k].written) ok = apart_give_up(x.obj[k].root, "an index array it writes");
  /* per depth, the parameters from whose memory a pointer read so many times reaches memory the function
     writes (written) or only reads (read) */
  unsigned long long read[2] = {0, 0}, written[2] = {0, 0};
  for (unsigned k = 0; k < x.nfields && ok; k++) {
    Field *f = &x.fields[k], *up = field_of(&x, f->parent);
    Object *parent = object_of(&x, f->parent), *own = object_of(&x, f->key);
    if (parent && parent->written) ok = apart_give_up(f->key, "a pointer read from memory it writes");
    LLVMValueRef param = up ? up->parent : f->parent;
    if (LLVMIsAArgument(param) && apart_param_index(param) < 64)
      (own && own->written ? written : read)[up != NULL] |= 1ULL << apart_param_index(param);
  }
  if (ok) set_read_through(&x, copy, read[0] & ~written[0], read[1] & ~written[1]);
  if (ok) {
    /* the objects, then each reached parameter's or field's shadow at the same offsets (written where the
       derivative may write it: an index array's shadow, the record's own pointer, may be the same array) */
    unsigned n = x.nobj;
    LLVMValueRef base[2 * MAX_OBJECTS];
    Span bytes[2 * MAX_OBJECTS];
    bool written[2 * MAX_OBJECTS];
    for (unsigned k = 0; k < x.nobj; k++) {
      Object *o = &x.obj[k];
      base[k] = apart_root_in_check(&x, o->root);
      bytes[k] = o->bytes, written[k] = o->written;
      if (shadowed(&x, o->root, activity))
        base[n] = shadow_in_check(&x, o->root), bytes[n] = o->bytes, written[n++] = o->shadow_written;
    }
    for (unsigned i = 0; i < n; i++)
      for (unsigned j = i + 1; j < n; j++)
        if (written[i] || written[j]) require(&x, apart(&x, base[i], bytes[i], base[j], bytes[j]));
    LLVMBuildRet(x.b, x.ok);
  }
  apart_guards_clear(&x);
  vmap_free(&x.guarded_lo), vmap_free(&x.guarded_hi);
  apart_pop_frame(&x);
  if (!ok) LLVMBuildRet(x.b, LLVMConstInt(LLVMInt1TypeInContext(c), 0, 0)); /* a body until undo deletes it */
  LLVMDisposeBuilder(x.b);
  return ok;
}

/* The choice undone: the check false, the copy's requests gone. */
static void undo(LLVMValueRef check, LLVMValueRef copy) {
  LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(check));
  LLVMValueRef no = LLVMConstInt(LLVMInt1TypeInContext(c), 0, 0);
  while (LLVMGetFirstUse(check)) {
    LLVMValueRef call = LLVMGetUser(LLVMGetFirstUse(check));
    LLVMReplaceAllUsesWith(call, no);
    LLVMInstructionEraseFromParent(call);
  }
  LLVMDeleteFunction(check);
  if (!copy) return;
  ValueList calls = {0};
  for (LLVMUseRef u = LLVMGetFirstUse(copy); u; u = LLVMGetNextUse(u))
    if (ir_is_call(LLVMGetUser(u))) vec_push(&calls, LLVMGetUser(u));
  for (size_t i = 0; i < calls.len; i++) {
    LLVMValueRef call = calls.data[i];
    if (LLVMGetTypeKind(LLVMTypeOf(call)) != LLVMVoidTypeKind) LLVMReplaceAllUsesWith(call, LLVMGetPoison(LLVMTypeOf(call)));
    LLVMInstructionEraseFromParent(call);
  }
  vec_free(&calls);
  if (!LLVMGetFirstUse(copy)) LLVMDeleteFunction(copy);
}

unsigned apart_build_checks(LLVMModuleRef m) {
  vec_free(&placeholders), vec_free(&placed); /* a module given up before its gradients left them */
  ValueList checks = {0};
  unsigned built = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (LLVMIsDeclaration(f) && !strncmp(LLVMGetValueName(f), CHECK_PREFIX, strlen(CHECK_PREFIX))) vec_push(&checks, f);
  for (size_t i = 0; i < checks.len; i++) {
    LLVMValueRef check = checks.data[i];
    char *of = string_attr(check, "parad-apart-of"), *copy_name = string_attr(check, "parad-apart-copy"),
         *activity = string_attr(check, "parad-apart-activity");
    LLVMValueRef fn = of ? LLVMGetNamedFunction(m, of) : NULL, copy = copy_name ? LLVMGetNamedFunction(m, copy_name) : NULL;
    if (!(fn && copy && activity && !LLVMIsDeclaration(fn) && strlen(activity) == LLVMCountParams(fn) && build(m, fn, check, copy, activity)))
      undo(check, copy); /* the other checks of fn find no copy: their answer would be the same */
    else
      built++;
    free(of), free(copy_name), free(activity);
  }
  vec_free(&checks);
  return built;
}
