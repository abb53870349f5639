/* Memory a call never writes: see unwritten.h. */
#include "analysis/unwritten.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calls.h"
#include "analysis/dependence.h"
#include "ir/ir.h"
#include "omp/omp.h"

enum { MAX_CALL_DEPTH = 8 };

/* The attribute on parameter i of a call's callee, at the call or on the callee's declaration
 * (intrinsics such as llvm.memcpy carry theirs on the declaration). */
static bool param_has(LLVMValueRef call, LLVMValueRef callee, unsigned i, const char *attr) {
  if (ir_call_arg_has_attr(call, i, attr)) return true;
  return callee && LLVMGetEnumAttributeAtIndex(callee, i + 1, ir_attr_kind(attr)) != NULL;
}

static bool lifetime_marker(LLVMValueRef callee) {
  return callee && !strncmp(LLVMGetValueName(callee), "llvm.lifetime.", 14);
}

static bool only_reads(LLVMValueRef call, LLVMValueRef callee, unsigned i) {
  if (lifetime_marker(callee)) return true;
  return (param_has(call, callee, i, "readonly") || param_has(call, callee, i, "readnone")) &&
         param_has(call, callee, i, "nocapture");
}

LLVMValueRef unwritten_slot_value(LLVMValueRef slot) {
  if (!LLVMIsAAllocaInst(slot)) return NULL;
  LLVMValueRef stored = NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user)) continue;
    if (LLVMIsAStoreInst(user)) {
      if (LLVMGetOperand(user, 0) == slot || stored) return NULL; /* the slot's address escapes, or two stores */
      stored = LLVMGetOperand(user, 0);
      continue;
    }
    if (!ir_is_call(user)) return NULL;
    LLVMValueRef callee = ir_called_function(user);
    if (callee && omp_classify(user) == OMP_FORK) {
      /* the region function takes the slot by address: it must only read it */
      LLVMValueRef outlined = omp_fork_outlined(user);
      for (unsigned i = OMP_FORK_FIRST_ARG, n = ir_num_call_args(user); i < n; i++)
        if (LLVMGetArgOperand(user, i) == slot &&
            (!outlined || !LLVMGetEnumAttributeAtIndex(outlined, i - OMP_FORK_FIRST_ARG + OMP_OUTLINED_FIRST_PARAM + 1,
                                                       ir_attr_kind("readonly"))))
          return NULL;
      continue;
    }
    for (unsigned i = 0, n = ir_num_call_args(user); i < n; i++)
      if (LLVMGetArgOperand(user, i) == slot && !only_reads(user, callee, i)) return NULL;
  }
  return stored;
}

typedef struct {
  LLVMValueRef fn[MAX_CALL_DEPTH];
  unsigned param[MAX_CALL_DEPTH];
  int n;
  /* where the question starts (unwritten_after): writes in the outermost function that cannot run after
     it are not counted; NULL: all are */
  LLVMValueRef from;
  ValueMap reach; /* the blocks control can reach from `from`'s successors */
  Dependence *dep; /* from a load: a store of the outermost function that never overwrites what it read
                      does not count (NULL: every store counts) */
  ValueMap *callable; /* a global's question: the functions that may run after `from` (NULL: a parameter's,
                         whose callees are reached through its calls) */
  bool handed; /* a global's question: its address goes to code that may pass it to the function asked about
                  (a derivative's request, a function of no body): any pointer there may point into it */
} Path;

/* May inst, an instruction of the outermost function, run after path->from (or be it)? */
static bool runs_after(Path *path, LLVMValueRef inst) {
  if (!path->from || inst == path->from) return true;
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(inst);
  LLVMValueRef fn = LLVMGetBasicBlockParent(bb);
  if (path->callable && (fn != path->fn[0] || vmap_has(path->callable, fn))) return vmap_has(path->callable, fn);
  if (fn != path->fn[0]) return true; /* in a callee: the call decides */
  if (vmap_has(&path->reach, bb)) return true;
  if (bb != LLVMGetInstructionParent(path->from)) return false;
  for (LLVMValueRef i = LLVMGetNextInstruction(path->from); i; i = LLVMGetNextInstruction(i))
    if (i == inst) return true;
  return false;
}

static void reach_from(Path *path, LLVMBasicBlockRef start) {
  VEC(LLVMBasicBlockRef) work = {0};
  vec_push(&work, start);
  while (work.len) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(work.data[--work.len]);
    for (unsigned s = 0, n = term ? LLVMGetNumSuccessors(term) : 0; s < n; s++) {
      LLVMBasicBlockRef succ = LLVMGetSuccessor(term, s);
      if (vmap_has(&path->reach, succ)) continue;
      vmap_put(&path->reach, succ, succ);
      vec_push(&work, succ);
    }
  }
  vec_free(&work);
}

static bool writes_via_param(Path *path, LLVMValueRef fn, unsigned param, bool slot);

/* May code reached from call write memory through its argument i (v), or keep v for later? */
static bool call_writes(Path *path, LLVMValueRef call, unsigned i, bool slot) {
  LLVMValueRef callee = ir_called_function(call);
  CallKind k = call_classify(call, NULL);
  if (k == CALL_DEBUG) return false;
  if (k == CALL_OMP && omp_classify(call) == OMP_FORK) {
    LLVMValueRef outlined = omp_fork_outlined(call);
    if (!outlined || i < OMP_FORK_FIRST_ARG) return true;
    return writes_via_param(path, outlined, i - OMP_FORK_FIRST_ARG + OMP_OUTLINED_FIRST_PARAM, slot);
  }
  if (k == CALL_MODULE && callee && i < LLVMCountParams(callee)) return writes_via_param(path, callee, i, slot);
  return !only_reads(call, callee, i);
}

/* The module's functions as derivatives began to be generated (NULL: not known). A global is used by the
 * derivatives too, whose forward sweeps keep its address where the program did: the program's own uses,
 * and those of functions it may call that were made since (a loop moved into a function of its own),
 * are the ones that tell. */
static ValueMap *program;
/* The answers given meanwhile, per instruction asked from: a map of globals to 1 + the answer. The forward
 * and reverse sweeps must agree (a region's two functions take the same kind), whatever was generated
 * between their questions. */
static ValueMap *answers;

void unwritten_program_begin(LLVMModuleRef m) {
  unwritten_program_end();
  program = xcalloc(1, sizeof *program), answers = xcalloc(1, sizeof *answers);
  vmap_init(program), vmap_init(answers);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) vmap_put(program, f, f);
}

void unwritten_program_end(void) {
  if (answers)
    for (size_t i = 0; i < answers->cap; i++)
      if (answers->keys[i]) vmap_free(answers->vals[i]), free(answers->vals[i]);
  if (program) vmap_free(program), vmap_free(answers);
  free(program), free(answers);
  program = answers = NULL;
}

static bool writes_via(Path *path, LLVMValueRef v, bool slot, ValueList *seen);

/* Whether a call that does not run in the function asked about (a caller's: main's request for the
 * gradient) may hand its argument i, a global's address, to that function: the request itself, code
 * without a body that may call back, or a function of the program that passes it on so (followed). */
static bool hands_on(Path *path, LLVMValueRef call, unsigned i) {
  LLVMValueRef callee = ir_called_function(call);
  switch (call_classify(call, NULL)) {
  case CALL_DEBUG: case CALL_MATH: case CALL_MEMCPY: case CALL_MEMSET: case CALL_ALLOC: case CALL_REALLOC:
  case CALL_FREE: case CALL_INACTIVE: case CALL_MPI: return false;
  case CALL_MODULE: { /* what the callee does with it: followed as a write is, its handing on noted apart */
    if (!callee) return true;
    bool before = path->handed;
    path->handed = false;
    bool handed = writes_via_param(path, callee, i, false) || path->handed;
    path->handed = before;
    return handed;
  }
  default: return true;
  }
}

/* With the global's address handed to the function asked about: whether something from `from` on writes
 * through a pointer that may point into the global, one not made from another object (a local, another
 * global, a fresh block): the function's parameters, pointers loaded from memory (a request's `parad_const`
 * output pointed at a table the function reads by name: the reverse sweep read the table back
 * overwritten, 20 for 2). */
static bool is_other_object(LLVMValueRef root, LLVMValueRef global) {
  if (LLVMIsAAllocaInst(root)) return true;
  if (LLVMIsAGlobalVariable(root)) return root != global;
  return ir_is_call(root) && call_classify(root, NULL) == CALL_ALLOC;
}

static bool writes_elsewhere(Path *path, LLVMValueRef fn, LLVMValueRef global, bool whole) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!whole && !runs_after(path, i)) continue;
      if (LLVMIsAStoreInst(i) || LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i)) {
        if (!is_other_object(ir_root_object(LLVMGetOperand(i, LLVMIsAStoreInst(i) ? 1 : 0)), global)) return true;
        continue;
      }
      if (!ir_is_call(i)) continue;
      CallKind k = call_classify(i, NULL);
      if (k == CALL_DEBUG || k == CALL_MODULE || k == CALL_INACTIVE || k == CALL_MATH || k == CALL_ALLOC || k == CALL_FREE)
        continue; /* a callee of the program is looked at itself (path->callable) */
      if (k == CALL_OMP && omp_classify(i) == OMP_FORK) continue;
      LLVMValueRef callee = ir_called_function(i);
      for (unsigned a = 0, n = ir_num_call_args(i); a < n; a++) {
        LLVMValueRef arg = LLVMGetArgOperand(i, a);
        if (ir_is_ptr(LLVMTypeOf(arg)) && !only_reads(i, callee, a) && !is_other_object(ir_root_object(arg), global)) return true;
      }
    }
  return false;
}

/* May anything write memory through v or through a pointer computed from it (slot: v is the address of
 * a slot holding such a pointer, and the question is about what the pointer reaches)? */
static bool writes_via(Path *path, LLVMValueRef v, bool slot, ValueList *seen) {
  for (size_t s = 0; s < seen->len; s++)
    if (seen->data[s] == v) return false;
  vec_push(seen, v);
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (path->callable && program && LLVMIsAInstruction(user)) {
      LLVMValueRef in = LLVMGetBasicBlockParent(LLVMGetInstructionParent(user));
      if (in != path->fn[0] && !vmap_has(program, in) && !vmap_has(path->callable, in)) continue; /* a derivative's */
    }
    if (ir_is_call(user)) {
      for (unsigned i = 0, n = ir_num_call_args(user); i < n; i++) {
        if (LLVMGetArgOperand(user, i) != v) continue;
        if (runs_after(path, user)) {
          if (call_writes(path, user, i, slot)) return true;
        } else if (path->callable && !slot) {
          path->handed |= hands_on(path, user, i);
        }
      }
      continue;
    }
    if (slot) {
      /* the loads of the pointer held are followed; a store replaces it, except the one store that put it
         into a stack slot of this function (unwritten_slot_value) */
      if (LLVMIsAStoreInst(user) && LLVMIsAAllocaInst(v) && LLVMGetOperand(user, 1) == v) continue;
      if (!LLVMIsALoadInst(user) || writes_via(path, user, false, seen)) return true;
      continue;
    }
    if (!LLVMIsAInstruction(user)) { /* a global's element: the constant expression's users are followed */
      LLVMOpcode op = LLVMIsAConstantExpr(user) ? LLVMGetConstOpcode(user) : LLVMRet;
      if ((op != LLVMGetElementPtr && op != LLVMBitCast) || writes_via(path, user, false, seen)) return true;
      continue;
    }
    switch (LLVMGetInstructionOpcode(user)) {
    case LLVMLoad: break;
    case LLVMStore:
      if (LLVMGetOperand(user, 1) == v) {
        if (runs_after(path, user) && !(path->dep && path->n == 1 && LLVMIsALoadInst(path->from) &&
                                        LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)) == path->fn[0] &&
                                        !dependence_may_overwrite(path->dep, path->from, user)))
          return true;
        break;
      }
      /* v kept in a stack slot that is only read afterwards (a variable shared with a parallel region) */
      if (unwritten_slot_value(LLVMGetOperand(user, 1)) != v || writes_via(path, LLVMGetOperand(user, 1), true, seen))
        return true;
      break;
    case LLVMGetElementPtr:
    case LLVMBitCast:
    case LLVMAddrSpaceCast:
    case LLVMPHI:
    case LLVMSelect:
      if (writes_via(path, user, false, seen)) return true;
      break;
    case LLVMICmp: break;
    default: return true; /* an integer made of it, an atomic, anything else: assume the worst */
    }
  }
  return false;
}

static bool writes_via_param(Path *path, LLVMValueRef fn, unsigned param, bool slot) {
  if (LLVMIsDeclaration(fn) || param >= LLVMCountParams(fn)) return true;
  for (int i = 0; i < path->n; i++)
    if (path->fn[i] == fn && path->param[i] == param) return false; /* recursion: the first visit decides */
  if (path->n == MAX_CALL_DEPTH) return true;
  path->fn[path->n] = fn;
  path->param[path->n++] = param;
  ValueList seen = {0};
  bool writes = writes_via(path, LLVMGetParam(fn, param), slot, &seen);
  vec_free(&seen);
  path->n--;
  return writes;
}

/* Parameter i of fn is a pointer declared restrict (noalias). */
static bool restrict_param(LLVMValueRef fn, unsigned i) {
  return ir_is_ptr(LLVMTypeOf(LLVMGetParam(fn, i))) && LLVMGetEnumAttributeAtIndex(fn, i + 1, ir_attr_kind("noalias"));
}

unsigned long long unwritten_params(LLVMValueRef fn) {
  unsigned long long mask = 0;
  for (unsigned i = 0, n = LLVMCountParams(fn); i < n && i < 64; i++) {
    if (!restrict_param(fn, i)) continue;
    Path path = {.n = 0};
    if (!writes_via_param(&path, fn, i, false)) mask |= 1ULL << i;
  }
  return mask;
}

bool unwritten_after(LLVMValueRef param, LLVMValueRef from, Dependence *dep) {
  LLVMValueRef fn = LLVMGetParamParent(param);
  unsigned i = ir_param_index(param);
  if (!restrict_param(fn, i)) return false;
  Path path = {.n = 0, .from = from, .dep = dep};
  vmap_init(&path.reach);
  reach_from(&path, LLVMGetInstructionParent(from));
  bool written = writes_via_param(&path, fn, i, false);
  vmap_free(&path.reach);
  return !written;
}

static bool collect_callable(Path *path, LLVMValueRef fn, LLVMValueRef from, bool named, int depth);

/* f may run after `from`: into path->callable, with all it may call. */
static bool may_run(Path *path, LLVMValueRef f, bool named, int depth) {
  if (vmap_has(path->callable, f)) return true;
  vmap_put(path->callable, f, f);
  return collect_callable(path, f, NULL, named, depth + 1);
}

/* Used otherwise than called directly, by the program: code outside the module may call it back. */
static bool address_taken(LLVMValueRef f) {
  for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (program && LLVMIsAInstruction(user) && !vmap_has(program, LLVMGetBasicBlockParent(LLVMGetInstructionParent(user))))
      continue; /* a derivative's */
    if (!ir_is_call_site(user) || LLVMGetCalledValue(user) != f) return true;
  }
  return false;
}

/* The functions that may run after `from` in fn (NULL: all of fn), into path->callable: those its calls
 * from there on call, the functions they take as arguments (a parallel region's body, a task's, a
 * comparator), and all that these call in turn. False when that cannot be told (a call through a
 * pointer). A function without a body that is not known by name may call back any function whose address
 * is taken; where `named` (a global other files may name), it may write the global itself: false. */
static bool collect_callable(Path *path, LLVMValueRef fn, LLVMValueRef from, bool named, int depth) {
  if (depth > 4 * MAX_CALL_DEPTH) return false;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    bool whole = !from || vmap_has(&path->reach, bb);
    if (!whole && bb != LLVMGetInstructionParent(from)) continue;
    for (LLVMValueRef i = whole ? LLVMGetFirstInstruction(bb) : from; i; i = LLVMGetNextInstruction(i)) {
      if (!ir_is_call_site(i)) continue;
      LLVMValueRef callee = ir_called_function(i);
      if (!callee && !LLVMIsAInlineAsm(LLVMGetCalledValue(i))) return false;
      bool outside = callee && LLVMIsDeclaration(callee) && !call_known_by_name(i);
      if (outside && named && call_classify(i, NULL) != CALL_MPI) return false; /* MPI names no global of the program */
      if (callee && !LLVMIsDeclaration(callee) && !may_run(path, callee, named, depth)) return false;
      for (unsigned a = 0, m = ir_num_call_args(i); a < m; a++) {
        LLVMValueRef arg = ir_strip_pointer_casts(LLVMGetArgOperand(i, a));
        if (LLVMIsAFunction(arg) && !LLVMIsDeclaration(arg) && !may_run(path, arg, named, depth)) return false;
      }
      for (LLVMValueRef f = outside ? LLVMGetFirstFunction(LLVMGetGlobalParent(fn)) : NULL; f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f) && address_taken(f) && !may_run(path, f, named, depth)) return false;
    }
  }
  return true;
}

static bool answer_global(LLVMValueRef global, LLVMValueRef from, Dependence *dep);

bool unwritten_global_after(LLVMValueRef global, LLVMValueRef from, Dependence *dep) {
  if (!answers) return answer_global(global, from, dep);
  ValueMap *asked = vmap_get(answers, from);
  if (!asked) vmap_put(answers, from, asked = xcalloc(1, sizeof *asked)), vmap_init(asked);
  void *known = vmap_get(asked, global);
  if (!known) vmap_put(asked, global, known = (void *)(uintptr_t)(1 + answer_global(global, from, dep)));
  return known == (void *)2;
}

static bool answer_global(LLVMValueRef global, LLVMValueRef from, Dependence *dep) {
  if (!LLVMIsAGlobalVariable(global) || LLVMIsDeclaration(global) || LLVMIsExternallyInitialized(global) ||
      LLVMIsThreadLocal(global))
    return false;
  LLVMLinkage linkage = LLVMGetLinkage(global);
  bool named = linkage != LLVMInternalLinkage && linkage != LLVMPrivateLinkage;
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(from));
  ValueMap callable;
  vmap_init(&callable);
  Path path = {.n = 1, .from = from, .dep = dep, .callable = &callable};
  path.fn[0] = fn, path.param[0] = ~0u;
  vmap_init(&path.reach);
  reach_from(&path, LLVMGetInstructionParent(from));
  bool written = !collect_callable(&path, fn, from, named, 0);
  if (!written) {
    ValueList seen = {0};
    written = writes_via(&path, global, false, &seen);
    vec_free(&seen);
  }
  if (!written && path.handed) {
    written = writes_elsewhere(&path, fn, global, false);
    for (size_t k = 0; k < callable.cap && !written; k++)
      if (callable.keys[k]) written = writes_elsewhere(&path, (LLVMValueRef)callable.keys[k], global, true);
  }
  vmap_free(&path.reach);
  vmap_free(&callable);
  return !written;
}
