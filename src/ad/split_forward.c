/* Enzyme's split forward mode (__enzyme_fwdsplit): the tangent of a call whose primal already ran (in
 * __enzyme_augmentfwd), from the tape that run kept. Parad's forward mode computes the primal beside the
 * tangents, so it gives the same tangent where running the function again computes the same values: where
 * the function writes no memory it reads. Then the split call is a forward-mode call that runs the primal
 * again, and the tape is given back. The check is the function's own code (a callee that writes memory
 * it does not own makes the answer no): what it writes must be its stack, memory it allocates, or
 * parameters it only writes, whose arguments are the caller's own objects, apart from the other pointer
 * arguments. Anything else is refused, saying why, rather than tangents of values the first run changed. */
#include "ad/split_forward.h"

#include <stdio.h>
#include <string.h>

#include "analysis/calls.h"
#include "analysis/unwritten.h"
#include "ir/ir.h"
#include "ir/valuemap.h"
#include "omp/omp.h"

/* The object an address is in: a stack slot, a call's result, a parameter, a global; at -O0 through the
 * slot a parameter is kept in. */
static LLVMValueRef object_of(LLVMValueRef p) {
  for (int depth = 0; depth < 64; depth++) {
    p = ir_address_base(p);
    LLVMValueRef slot = LLVMIsALoadInst(p) ? LLVMGetOperand(p, 0) : NULL, value;
    if (!slot || !LLVMIsAAllocaInst(slot) || !(value = unwritten_slot_value(slot))) break;
    p = value;
  }
  return p;
}

/* A block an allocation call returns (calls.c's allocators, registered ones included). */
static bool fresh_allocation(LLVMValueRef obj) {
  return ir_is_call(obj) && call_classify(obj, NULL) == CALL_ALLOC && call_alloc_slot(obj) < 0;
}

typedef struct {
  LLVMValueRef fn;
  unsigned long long written, read; /* bits: fn's pointer parameters */
  ValueMap seen;                     /* callees looked at */
  ValueMap globals_read;
  bool unknown_read;                 /* through a pointer loaded from memory: it may be what it writes */
  char *why;
  size_t n;
  bool refused;
} Check;

static void refuse(Check *c, LLVMValueRef at, const char *what) {
  if (c->refused) return;
  c->refused = true;
  snprintf(c->why, c->n, "%s (in '%s')", what, LLVMGetValueName(LLVMGetBasicBlockParent(LLVMGetInstructionParent(at))));
}

static int param_index(Check *c, LLVMValueRef obj) {
  if (!LLVMIsAArgument(obj) || LLVMGetParamParent(obj) != c->fn) return -1;
  for (unsigned i = 0, n = LLVMCountParams(c->fn); i < n && i < 64; i++)
    if (LLVMGetParam(c->fn, i) == obj) return (int)i;
  return -1;
}

static void note_write(Check *c, LLVMValueRef at, LLVMValueRef p, bool top) {
  LLVMValueRef obj = object_of(p);
  if (LLVMIsAAllocaInst(obj) || fresh_allocation(obj)) return;
  int i = top ? param_index(c, obj) : -1;
  if (i >= 0) c->written |= 1ull << i;
  else refuse(c, at, "it writes memory it does not own (not its stack, an allocation of its own, or a parameter)");
}

static void note_read(Check *c, LLVMValueRef p, bool top) {
  LLVMValueRef obj = object_of(p);
  int i = top ? param_index(c, obj) : -1;
  if (i >= 0) c->read |= 1ull << i;
  if (LLVMIsAGlobalVariable(obj)) vmap_put(&c->globals_read, obj, obj);
  else if (!LLVMIsAArgument(obj) && !LLVMIsAAllocaInst(obj) && !fresh_allocation(obj) && !LLVMIsAConstant(obj))
    c->unknown_read = true; /* a callee's parameter is its caller's argument, noted at the call */
}

static void scan(Check *c, LLVMValueRef fn, bool top);

static void scan_call(Check *c, LLVMValueRef call, bool top) {
  const char *name = ir_called_name(call);
  if (LLVMIsAIntrinsicInst(call)) {
    if (!strncmp(name, "llvm.memcpy.", 12) || !strncmp(name, "llvm.memmove.", 13)) {
      note_write(c, call, LLVMGetArgOperand(call, 0), top);
      note_read(c, LLVMGetArgOperand(call, 1), top);
    } else if (!strncmp(name, "llvm.memset.", 12)) {
      note_write(c, call, LLVMGetArgOperand(call, 0), top);
    }
    return;
  }
  LLVMValueRef callee = ir_called_function(call), run = omp_called_function(call);
  if (run) callee = run;
  bool defined = callee && !LLVMIsDeclaration(callee);
  if (defined) scan(c, callee, false);
  for (unsigned a = 0, n = ir_num_call_args(call); a < n; a++) {
    LLVMValueRef arg = LLVMGetArgOperand(call, a);
    if (!ir_is_ptr(LLVMTypeOf(arg))) continue;
    /* what a callee does with a pointer: read it (a defined callee's writes are its own refusal) */
    note_read(c, arg, top);
    if (!defined && !fresh_allocation(call) && !LLVMIsAFunction(ir_strip_pointer_casts(arg)) &&
        !ir_call_arg_has_attr(call, a, "readonly") && !omp_is_runtime_call(call) && call_classify(call, NULL) != CALL_FREE) {
      LLVMValueRef obj = object_of(arg);
      if (!LLVMIsAAllocaInst(obj) && !fresh_allocation(obj) && !LLVMIsAGlobalVariable(obj))
        refuse(c, call, "it passes memory it does not own to a function outside the program, which may write it");
    }
  }
}

static void scan(Check *c, LLVMValueRef fn, bool top) {
  if (c->refused || vmap_has(&c->seen, fn)) return;
  vmap_put(&c->seen, fn, fn);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && !c->refused; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && !c->refused; i = LLVMGetNextInstruction(i)) {
      if (LLVMIsAStoreInst(i)) note_write(c, i, LLVMGetOperand(i, 1), top);
      else if (LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i)) note_write(c, i, LLVMGetOperand(i, 0), top);
      else if (LLVMIsALoadInst(i)) note_read(c, LLVMGetOperand(i, 0), top);
      else if (ir_is_call_site(i) && !ir_is_debug_intrinsic(i)) scan_call(c, i, top);
    }
}

bool split_forward_recomputable(LLVMValueRef fn, LLVMValueRef *args, char *why, size_t n) {
  Check c = {.fn = fn, .why = why, .n = n};
  vmap_init(&c.seen);
  vmap_init(&c.globals_read);
  scan(&c, fn, true);
  bool ok = !c.refused;
  unsigned nparams = LLVMCountParams(fn);
  if (ok && c.written && c.unknown_read) {
    snprintf(why, n, "it writes through a parameter and reads through a pointer it loads from memory, which may "
                     "point to what it writes");
    ok = false;
  }
  for (unsigned i = 0; i < nparams && i < 64 && ok; i++) {
    if (!(c.written >> i & 1)) continue;
    if (c.read >> i & 1) {
      snprintf(why, n, "it reads what it writes through parameter #%u, so a second run starts from the first "
                       "run's results", i + 1);
      ok = false;
      break;
    }
    LLVMValueRef obj = object_of(args[i]);
    bool own = LLVMIsAAllocaInst(obj) || fresh_allocation(obj) ||
               (LLVMIsAGlobalVariable(obj) && !vmap_has(&c.globals_read, obj));
    for (unsigned j = 0; j < nparams && own; j++)
      if (j != i && ir_is_ptr(LLVMTypeOf(args[j])) && object_of(args[j]) == obj) own = false;
    if (!own) {
      snprintf(why, n, "the argument for parameter #%u, which it writes, is not an object of the caller's own "
                       "apart from the other arguments (it may be what another parameter reads)", i + 1);
      ok = false;
    }
  }
  vmap_free(&c.seen);
  vmap_free(&c.globals_read);
  return ok;
}
