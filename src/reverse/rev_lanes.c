/* Integers that carry floats' bits, in reverse mode. After optimisation a struct of two floats may be
 * copied as one i64, read back with a shift, a truncation and a bitcast, and a float packed next to an
 * int with zext, shl and or. Forward mode moves tangents through such integers as bits. The reverse
 * sweep moves adjoints through them the same way, but it must also add them, and adding needs to know
 * which floats the bits hold.
 *
 * The varied integers linked by bit-moving operations, phis and selects form a web. The float types
 * its bits come from or go to (bitcasts, typed loads and stores) give the width of its lanes; an
 * integer's adjoint is then a float of that width or a vector of them (i64 holding two floats:
 * <2 x float>), moved as bits and added as floats. A web that meets no float needs no adjoint, unless
 * it copies memory of unknown type into active memory: that may be a float, and Parad cannot tell. */
#include <stdlib.h>
#include <string.h>

#include "analysis/memtype.h"
#include "omp/omp.h"
#include "reverse/rev_internal.h"

enum { W32 = 1, W64 = 2, W_OTHER = 4 };

typedef struct {
  ValueList values;
  ValueMap index; /* value -> 1 + position */
  size_t *parent;
  unsigned *widths;                  /* per root: W32 | W64 | W_OTHER */
  unsigned *guess;                   /* per root: the width of a firstprivate value's one float, where
                                        nothing else tells (see link) */
  LLVMValueRef *source, *sink, *odd; /* per root: a load / store of unknown type, an unsupported use */
} Webs;

/* An integer, or a vector of them (a `<2 x i64>` loaded from doubles, as a vector extension's integer
 * view of them is): a vector's lanes are its bits taken whole, moved only as a whole (bitcasts, loads,
 * stores, phis and selects). */
static bool is_int(LLVMValueRef v) {
  LLVMTypeRef t = ir_scalar_type(LLVMTypeOf(v));
  return LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) > 1;
}

static bool is_vector(LLVMValueRef v) { return LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind; }

/* All of an integer's or an integer vector's bits. */
static unsigned int_bits(LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  return LLVMGetIntTypeWidth(ir_scalar_type(t)) * (is_vector(v) ? LLVMGetVectorSize(t) : 1);
}

/* A vector's integer arithmetic (a mantissa masked out) is left to activity's refusal where its bits
 * become floats again. */
static bool moved_whole(LLVMValueRef v) {
  if (!is_vector(v) || !LLVMIsAInstruction(v)) return true;
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  return op == LLVMLoad || op == LLVMBitCast || op == LLVMPHI || op == LLVMSelect || op == LLVMFreeze || op == LLVMCall;
}

static bool varied_int(RevGen *g, LLVMValueRef v) {
  return (LLVMIsAInstruction(v) || LLVMIsAArgument(v)) && is_int(v) && moved_whole(v) && activity_varied(g->act, v);
}

static size_t find(Webs *w, size_t i) {
  while (w->parent[i] != i) i = w->parent[i] = w->parent[w->parent[i]];
  return i;
}

static size_t web_of(Webs *w, LLVMValueRef v) { return find(w, (size_t)vmap_get(&w->index, v) - 1); }

static void join(Webs *w, LLVMValueRef a, LLVMValueRef b) {
  size_t x = web_of(w, a), y = web_of(w, b);
  if (x == y) return;
  w->parent[y] = x;
  w->widths[x] |= w->widths[y];
  w->guess[x] |= w->guess[y];
  if (!w->source[x]) w->source[x] = w->source[y];
  if (!w->sink[x]) w->sink[x] = w->sink[y];
  if (!w->odd[x]) w->odd[x] = w->odd[y];
}

static unsigned width_flag(LLVMTypeRef fp) {
  LLVMTypeKind k = LLVMGetTypeKind(ir_scalar_type(fp));
  return k == LLVMFloatTypeKind ? W32 : k == LLVMDoubleTypeKind ? W64 : W_OTHER;
}

static void note_odd(Webs *w, LLVMValueRef v, LLVMValueRef at) {
  size_t r = web_of(w, v);
  if (!w->odd[r]) w->odd[r] = at;
}

/* The floats an integer load or store moves, from its own type tags or the address's type, else from
 * how the function accesses the same object otherwise (a struct of floats copied as an i64 and read
 * field by field); 0 when unknown. */
static unsigned memory_width(LLVMValueRef access, LLVMValueRef ptr) {
  unsigned bits = memtype_fp_bits(access);
  if (bits == 32 || bits == 64) return bits == 32 ? W32 : W64;
  if (memtype_of_access(access) == MEMTYPE_INT) return 0;
  DataKind k = memtype_of_data(ptr);
  return k == DATA_F32 ? W32 : k == DATA_F64 ? W64 : 0;
}

/* An integer passed by value as one float of its size. */
static unsigned int_as_float(LLVMValueRef v) {
  unsigned n = int_bits(v);
  return n == 32 ? W32 : n == 64 ? W64 : W_OTHER;
}

/* Whether an integer value is only ever used as an integer: compared, indexed with, counted, converted to
 * another integer or converted to a float by value, kept in a stack slot read back the same way, passed
 * to a function of the module that does the same. A float's bits would need a bitcast, a store elsewhere
 * or an unknown call to reach a float again. `seen`: values and slots already being asked about (a loop counter's slot, a recursion),
 * taken as integers unless something else says otherwise. */
static bool integer_only(LLVMValueRef v, ValueMap *seen);

static bool task_block(LLVMValueRef p) { return omp_task_alloc_of(ir_address_base(p)) != NULL; }

/* llvm.smin, smax, umin, umax: one of the operands, as a select gives it (a string's common length at -O1) */
static bool choice_intrinsic(LLVMValueRef v) {
  if (!ir_is_call(v)) return false;
  const char *name = ir_called_name(v);
  return name && !strncmp(name, "llvm.", 5) && (!strncmp(name + 5, "smin.", 5) || !strncmp(name + 5, "smax.", 5) ||
                                                !strncmp(name + 5, "umin.", 5) || !strncmp(name + 5, "umax.", 5));
}

static bool integer_parameter(LLVMValueRef call, LLVMValueRef v, ValueMap *seen) {
  LLVMValueRef callee = ir_called_function(call);
  if (callee && call_classify(call, NULL) == CALL_INACTIVE) return true; /* printed, reported (UBSan's handlers) */
  if (!callee || LLVMIsDeclaration(callee) || LLVMIsFunctionVarArg(LLVMGlobalGetValueType(callee))) return false;
  for (unsigned i = 0, n = ir_num_call_args(call); i < n && i < LLVMCountParams(callee); i++)
    if (LLVMGetArgOperand(call, i) == v && !integer_only(LLVMGetParam(callee, i), seen)) return false;
  return true;
}

/* A local pointer slot (-O0's `int *link`). */
static bool pointer_slot(LLVMValueRef p) { return LLVMIsAAllocaInst(p) && ir_is_ptr(LLVMGetAllocatedType(p)); }

/* Whether what a local slot holds is read back only as an integer; its address may be kept in local
 * pointer slots, through which what is stored is asked about where it is stored (integer_field). */
static bool integer_slot(LLVMValueRef slot, ValueMap *seen) {
  if (vmap_has(seen, slot)) return true;
  vmap_put(seen, slot, slot);
  for (LLVMUseRef s = LLVMGetFirstUse(slot); s; s = LLVMGetNextUse(s)) {
    LLVMValueRef su = LLVMGetUser(s);
    if (LLVMIsALoadInst(su) ? !integer_only(su, seen)
                            : !(LLVMIsAStoreInst(su) && (LLVMGetOperand(su, 1) == slot ||
                                                          (LLVMGetOperand(su, 0) == slot && pointer_slot(ir_strip_pointer_casts(LLVMGetOperand(su, 1)))))))
      return false;
  }
  return true;
}

/* clang names a union's type so; its first member is the type only of that member's accesses */
static bool is_union(LLVMTypeRef t) {
  const char *name = LLVMGetStructName(t);
  return !name || !strncmp(name, "union.", 6);
}

/* Whether local a is an integer of `bits` bits that only its own loads and stores of that type touch, its
 * address kept at most in local pointer slots (-O0's `int *link = &head`): no float's bytes get there. */
static bool plain_int_local(LLVMValueRef a, unsigned bits) {
  LLVMTypeRef t = LLVMGetAllocatedType(a);
  if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(t) != bits) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(a); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user) ? LLVMTypeOf(user) == t : ir_is_debug_intrinsic(user) || ir_is_lifetime_marker(user)) continue;
    if (!LLVMIsAStoreInst(user)) return false;
    LLVMValueRef value = LLVMGetOperand(user, 0), at = ir_strip_pointer_casts(LLVMGetOperand(user, 1));
    if (at == a ? LLVMTypeOf(value) != t : value != a || !pointer_slot(at)) return false;
  }
  return true;
}

/* Whether a local array of integers of `bits` bits (`char name[8]`), at is its address or one computed from
 * it, is touched only by integer loads and stores of that width, at any index, besides memset and library
 * calls that read it (strcmp): what is read back is asked on its own. */
static bool plain_int_array(LLVMValueRef at, unsigned bits, ValueMap *seen, int depth) {
  if (depth > 8) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(at); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (ir_is_debug_intrinsic(user) || ir_is_lifetime_marker(user)) continue;
    if (LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user)) {
      if (LLVMGetOperand(user, 0) != at || !plain_int_array(user, bits, seen, depth + 1)) return false;
      continue;
    }
    bool load = LLVMIsALoadInst(user), store = LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == at;
    LLVMTypeRef t = load ? LLVMTypeOf(user) : store ? LLVMTypeOf(LLVMGetOperand(user, 0)) : NULL;
    if (t && (LLVMGetTypeKind(t) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(t) != bits)) return false;
    if (load && !integer_only(user, seen)) return false;
    if (load || store) continue;
    if (!ir_is_call(user) || (call_classify(user, NULL) != CALL_INACTIVE && !strstr(ir_called_name(user), "memset")))
      return false;
  }
  return true;
}

static bool int_array_type(LLVMTypeRef t, unsigned bits) {
  while (LLVMGetTypeKind(t) == LLVMArrayTypeKind) t = LLVMGetElementType(t);
  return LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) == bits;
}

/* Whether p is the address of an integer of `bits` bits by the types the program declares: a struct's
 * integer field (`&pool[k].next`; not a union's), a local integer read back only as one, or a choice among
 * those, in a phi or a local pointer slot (-O0's `int *link` walking a linked list's nodes). A struct
 * field's integer may still be a float's bits (a sort key made from a double): what reads it back is asked
 * on its own, and refused where it becomes a float again. */
static bool integer_field(LLVMValueRef p, unsigned bits, int depth, ValueMap *seen) {
  p = ir_strip_pointer_casts(p);
  if (depth > 8) return false;
  if (LLVMIsAPHINode(p)) {
    for (unsigned i = 0, n = LLVMCountIncoming(p); i < n; i++)
      if (LLVMGetIncomingValue(p, i) != p && !integer_field(LLVMGetIncomingValue(p, i), bits, depth + 1, seen)) return false;
    return true;
  }
  if (LLVMIsASelectInst(p))
    return integer_field(LLVMGetOperand(p, 1), bits, depth + 1, seen) && integer_field(LLVMGetOperand(p, 2), bits, depth + 1, seen);
  if (LLVMIsAAllocaInst(p)) return plain_int_local(p, bits) && integer_slot(p, seen); /* read back as one too */
  LLVMValueRef slot = LLVMIsALoadInst(p) ? ir_strip_pointer_casts(LLVMGetOperand(p, 0)) : NULL;
  if (slot && pointer_slot(slot)) { /* every address it is given */
    for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if (LLVMIsALoadInst(user) || ir_is_debug_intrinsic(user) || ir_is_lifetime_marker(user)) continue;
      if (!LLVMIsAStoreInst(user) || LLVMGetOperand(user, 1) != slot || !integer_field(LLVMGetOperand(user, 0), bits, depth + 1, seen))
        return false;
    }
    return true;
  }
  if (!LLVMIsAGetElementPtrInst(p) && !(LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr)) return false;
  LLVMValueRef base = ir_root_object(p);
  if (LLVMIsAAllocaInst(base) && int_array_type(LLVMGetAllocatedType(base), bits)) {
    if (vmap_has(seen, base)) return true;
    vmap_put(seen, base, base);
    return plain_int_array(base, bits, seen, 0);
  }
  LLVMTypeRef t = LLVMGetGEPSourceElementType(p);
  bool field = false;
  for (unsigned k = 2, n = (unsigned)LLVMGetNumOperands(p); k < n; k++) {
    LLVMValueRef index = LLVMGetOperand(p, k);
    if (LLVMGetTypeKind(t) == LLVMStructTypeKind && LLVMIsAConstantInt(index) && !is_union(t))
      t = LLVMStructGetTypeAtIndex(t, (unsigned)LLVMConstIntGetZExtValue(index)), field = true;
    else if (LLVMGetTypeKind(t) == LLVMArrayTypeKind)
      t = LLVMGetElementType(t), field = false; /* an array's element, not the field itself */
    else
      return false;
  }
  return field && LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) == bits;
}

/* Whether every use of fn is a direct call whose result is used only as an integer. */
static bool integer_result(LLVMValueRef fn, ValueMap *seen) {
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    if (!ir_is_call(call) || ir_called_function(call) != fn || !integer_only(call, seen)) return false;
  }
  return LLVMGetFirstUse(fn) != NULL;
}

/* integer_only, asked afresh. */
static bool used_as_integer_only(LLVMValueRef v) {
  ValueMap seen;
  vmap_init(&seen);
  bool r = integer_only(v, &seen);
  vmap_free(&seen);
  return r;
}

static bool integer_only(LLVMValueRef v, ValueMap *seen) {
  if (is_vector(v)) return false; /* not followed */
  if (vmap_has(seen, v)) return true;
  vmap_put(seen, v, v);
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    switch (LLVMGetInstructionOpcode(user)) {
    case LLVMICmp:
    case LLVMBr:
    case LLVMSwitch:
    case LLVMSIToFP: /* its value, converted: not its bits */
    case LLVMUIToFP: continue;
    case LLVMGetElementPtr:
      if (LLVMGetOperand(user, 0) == v) return false;
      continue;
    case LLVMSExt:
    case LLVMZExt:
    case LLVMTrunc:
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
    case LLVMSDiv:
    case LLVMUDiv:
    case LLVMSRem:
    case LLVMURem:
    case LLVMXor:
    case LLVMOr:
    case LLVMAnd:
    case LLVMShl:
    case LLVMLShr:
    case LLVMAShr:
    case LLVMPHI:
    case LLVMSelect:
      if (LLVMIsASelectInst(user) && LLVMGetOperand(user, 0) == v) continue; /* a condition */
      if (!integer_only(user, seen)) return false;
      continue;
    case LLVMCall:
      if (choice_intrinsic(user) ? !integer_only(user, seen) : !integer_parameter(user, v, seen)) return false;
      continue;
    case LLVMRet: /* a hash returned: what every caller does with it */
      if (!integer_result(LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)), seen)) return false;
      continue;
    case LLVMStore: /* into a slot read back as an integer, or a task's private copy (its body is
                       differentiated on its own, and refuses what it cannot tell there) */
      if (LLVMGetOperand(user, 0) != v) return false;
      if (task_block(LLVMGetOperand(user, 1))) continue;
      if (LLVMIsAAllocaInst(LLVMGetOperand(user, 1)) ? !integer_slot(LLVMGetOperand(user, 1), seen)
                                                     : !integer_field(LLVMGetOperand(user, 1), LLVMGetIntTypeWidth(LLVMTypeOf(v)), 0, seen))
        return false;
      continue;
    default: return false;
    }
  }
  return true;
}

/* An argument a function of the module takes as an integer and uses only as one (a tile number that a
 * task passes on at -O0, read through clang's map of the task's private copies): no float's bits. */
static bool integer_argument(LLVMValueRef call, LLVMValueRef v) {
  ValueMap seen;
  vmap_init(&seen);
  bool r = integer_parameter(call, v, &seen);
  vmap_free(&seen);
  return r;
}

/* What one varied integer's definition and uses say about its web. */
static void link(RevGen *g, Webs *w, LLVMValueRef v) {
  size_t r = web_of(w, v);
  if (LLVMIsAInstruction(v)) {
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMTrunc:
    case LLVMZExt:
    case LLVMShl:
    case LLVMLShr:
    case LLVMAnd:
    case LLVMOr:
    case LLVMFreeze:
    case LLVMPHI:
    case LLVMSelect:
      for (unsigned i = 0, n = (unsigned)LLVMGetNumOperands(v); i < n; i++)
        if (varied_int(g, LLVMGetOperand(v, i))) join(w, v, LLVMGetOperand(v, i));
      break;
    case LLVMBitCast: w->widths[r] |= width_flag(LLVMTypeOf(LLVMGetOperand(v, 0))); break;
    case LLVMCall:
      if (!choice_intrinsic(v)) {
        note_odd(w, v, v);
        break;
      }
      for (unsigned i = 0, n = ir_num_call_args(v); i < n; i++)
        if (varied_int(g, LLVMGetArgOperand(v, i))) join(w, v, LLVMGetArgOperand(v, i));
      break;
    case LLVMLoad: {
      unsigned flag = memory_width(v, LLVMGetOperand(v, 0));
      if (flag) w->widths[r] |= flag;
      else if (memtype_of_access(v) == MEMTYPE_UNKNOWN && !w->source[r]) w->source[r] = v;
      break;
    }
    default: note_odd(w, v, v); break; /* an integer out of a struct, a vector, a call */
    }
  } else { /* a parameter: by value to an outlined function (firstprivate); as one float of its size where
              nothing else tells: clang passes a float firstprivate in a word too, its bits the low half
              (truncated and bitcast at -O2, stored and read as a float at -O0), and taken as a double the
              threads' adjoints were added as doubles: garbage at 2 threads */
    unsigned p = 0;
    for (LLVMValueRef q = LLVMGetFirstParam(g->orig); q != v; q = LLVMGetNextParam(q)) p++;
    if (g->pattern[p] == 'o') w->guess[r] |= int_as_float(v);
    else note_odd(w, v, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(g->orig)));
  }
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    r = web_of(w, v);
    switch (LLVMGetInstructionOpcode(user)) {
    case LLVMBitCast:
      if (ir_is_fp_or_fp_vector(LLVMTypeOf(user))) w->widths[r] |= width_flag(LLVMTypeOf(user));
      break;
    case LLVMStore: {
      if (LLVMGetOperand(user, 0) != v || !activity_shadowed(g->act, LLVMGetOperand(user, 1))) break;
      unsigned flag = memory_width(user, LLVMGetOperand(user, 1));
      if (flag) w->widths[r] |= flag;
      else if (memtype_of_access(user) == MEMTYPE_UNKNOWN && !w->sink[r]) w->sink[r] = user; /* typed: a pointer's bits */
      break;
    }
    case LLVMCall:
      /* by value to a parallel region's function (firstprivate): one float of its size there too, where
         nothing else tells */
      if (omp_is_runtime_call(user) && omp_classify(user) == OMP_FORK && LLVMGetOperand(user, 2) != v) {
        w->guess[r] |= int_as_float(v);
        break;
      }
      if (!choice_intrinsic(user) && !integer_argument(user, v)) note_odd(w, v, user); /* a choice: joined as its own value */
      break;
    case LLVMRet:
    case LLVMInsertValue:
    case LLVMInsertElement:
      note_odd(w, v, user);
      break;
    default: break; /* comparisons and arithmetic: no derivative goes that way */
    }
  }
}

void lanes_analyse(RevGen *g) {
  Webs w = {0};
  vmap_init(&w.index);
  memtype_hold(); /* the analysis only reads the function */
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->orig); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if (varied_int(g, i)) vec_push(&w.values, i);
  for (LLVMValueRef p = LLVMGetFirstParam(g->orig); p; p = LLVMGetNextParam(p))
    if (varied_int(g, p)) vec_push(&w.values, p);
  size_t n = w.values.len;
  w.parent = xcalloc(n + 1, sizeof *w.parent);
  w.widths = xcalloc(n + 1, sizeof *w.widths);
  w.guess = xcalloc(n + 1, sizeof *w.guess);
  w.source = xcalloc(n + 1, sizeof *w.source);
  w.sink = xcalloc(n + 1, sizeof *w.sink);
  w.odd = xcalloc(n + 1, sizeof *w.odd);
  for (size_t i = 0; i < n; i++) {
    w.parent[i] = i;
    vmap_put(&w.index, w.values.data[i], (void *)(i + 1));
  }
  for (size_t i = 0; i < n; i++) link(g, &w, w.values.data[i]);
  for (size_t i = 0; i < n; i++)
    if (find(&w, i) == i && !(w.widths[i] & (W32 | W64))) w.widths[i] |= w.guess[i];
  /* A web refused below whose every value is only used as an integer (a std::map's int key read at -O0
     from a node that holds a double beside it, which no type says is an int there) carries no float's
     derivative, whatever the memory it came from holds: it gets no adjoint instead. (Webs not refused keep
     theirs: other steps have sized their functions' results by them.) */
  bool *refused = xcalloc(n + 1, sizeof *refused), *as_float = xcalloc(n + 1, sizeof *as_float);
  for (size_t i = 0; i < n; i++) {
    size_t r = find(&w, i);
    unsigned ws = w.widths[r], bits = int_bits(w.values.data[i]);
    if (w.odd[r] || ws & W_OTHER || ws == (W32 | W64) || (!ws && w.source[r] && w.sink[r]) ||
        ((ws == W32 || ws == W64) && bits % (ws == W32 ? 32 : 64)))
      refused[r] = true;
  }
  for (size_t i = 0; i < n; i++) {
    if (!refused[find(&w, i)] || as_float[find(&w, i)]) continue;
    if (!used_as_integer_only(w.values.data[i])) as_float[find(&w, i)] = true;
  }

  for (size_t i = 0; i < n; i++) { /* each web's verdict, reported once at its root */
    if (find(&w, i) != i || (refused[i] && !as_float[i])) continue;
    unsigned ws = w.widths[i];
    if (w.odd[i])
      rev_error(g, w.odd[i], "reverse mode cannot differentiate floats moved as integer bits into or out of a "
                             "call, a return, a struct value or a vector");
    else if (ws & W_OTHER || ws == (W32 | W64))
      rev_error(g, w.values.data[i], "reverse mode cannot differentiate floats of different types packed into one integer");
    else if (!ws && w.source[i] && w.sink[i])
      rev_error(g, w.sink[i], "reverse mode cannot tell whether this integer store of active memory carries "
                              "floating-point data or a pointer");
  }
  for (size_t i = 0; i < n; i++) {
    size_t r = find(&w, i);
    unsigned ws = w.widths[r];
    LLVMValueRef v = w.values.data[i];
    if (w.odd[r] || (refused[r] && !as_float[r]) || !(ws == W32 || ws == W64)) continue; /* no adjoint: refused above, or none needed */
    unsigned lane = ws == W32 ? 32 : 64, bits = int_bits(v);
    LLVMTypeRef fp = lane == 32 ? LLVMFloatTypeInContext(g->ctx) : LLVMDoubleTypeInContext(g->ctx);
    if (bits % lane) {
      /* bytes of a float read only as integers (hashed to pick a bucket) carry no derivative back */
      if (!used_as_integer_only(v))
        rev_error(g, v, "reverse mode cannot differentiate a part of a float's bits moved as a smaller integer%s",
                  bits == 8 ? " (a byte at a time: a loop that does nothing but copy or swap bytes in order moves "
                              "whole blocks; or copy with memcpy)"
                            : "");
      continue;
    }
    vmap_put(&g->lanes, v, bits == lane ? fp : LLVMVectorType(fp, bits / lane));
  }
  memtype_release();
  vmap_free(&w.index);
  vec_free(&w.values);
  free(w.parent);
  free(w.widths);
  free(w.guess);
  free(w.source);
  free(w.sink);
  free(w.odd);
  free(refused);
  free(as_float);
}

LLVMTypeRef adj_type_of(RevGen *g, LLVMValueRef v) {
  if (is_int(v)) return vmap_get(&g->lanes, v);
  return adj_type(LLVMTypeOf(v));
}

/* ---- adjoints through bit-moving operations ---- */

static unsigned long long width_mask(LLVMTypeRef t) {
  unsigned n = LLVMGetIntTypeWidth(t);
  return n >= 64 ? ~0ull : (1ull << n) - 1;
}

/* The bits of v that may be set, from how it was built (zext, shifts, masks, or). */
static unsigned long long possible_bits(LLVMValueRef v, int depth) {
  LLVMTypeRef t = LLVMTypeOf(v);
  unsigned long long all = width_mask(t);
  if (LLVMIsAConstantInt(v)) return LLVMConstIntGetZExtValue(v) & all;
  if (depth > 16 || !LLVMIsAInstruction(v)) return all;
  LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMZExt: return possible_bits(a, depth + 1) & width_mask(LLVMTypeOf(a));
  case LLVMTrunc: return possible_bits(a, depth + 1) & all;
  case LLVMShl:
    return LLVMIsAConstantInt(b) && LLVMConstIntGetZExtValue(b) < 64 ? (possible_bits(a, depth + 1) << LLVMConstIntGetZExtValue(b)) & all : all;
  case LLVMLShr:
    return LLVMIsAConstantInt(b) && LLVMConstIntGetZExtValue(b) < 64 ? possible_bits(a, depth + 1) >> LLVMConstIntGetZExtValue(b) : all;
  case LLVMAnd: return possible_bits(a, depth + 1) & possible_bits(b, depth + 1);
  case LLVMOr: return possible_bits(a, depth + 1) | possible_bits(b, depth + 1);
  default: return all;
  }
}

static void add_bits(RevGen *g, LLVMValueRef operand, LLVMValueRef bits) {
  LLVMTypeRef t = adj_type_of(g, operand);
  if (t && activity_varied(g->act, operand)) adj_add(g, operand, LLVMBuildBitCast(g->b, bits, t, ""));
}

void rev_bits(RevGen *g, LLVMValueRef inst, LLVMValueRef d) {
  LLVMTypeRef t = LLVMTypeOf(inst);
  LLVMValueRef a = LLVMGetOperand(inst, 0), b = LLVMGetNumOperands(inst) > 1 ? LLVMGetOperand(inst, 1) : NULL;
  LLVMOpcode op = LLVMGetInstructionOpcode(inst);
  if (op == LLVMBitCast) { /* a float's bits as an integer, or back: the same adjoint */
    LLVMTypeRef at = adj_type_of(g, a);
    if (at) adj_add(g, a, LLVMTypeOf(d) == at ? d : LLVMBuildBitCast(g->b, d, at, ""));
    return;
  }
  LLVMValueRef bits = LLVMBuildBitCast(g->b, d, t, "");
  switch (op) {
  case LLVMTrunc: add_bits(g, a, LLVMBuildZExt(g->b, bits, LLVMTypeOf(a), "")); return;
  case LLVMZExt: add_bits(g, a, LLVMBuildTrunc(g->b, bits, LLVMTypeOf(a), "")); return;
  case LLVMShl: add_bits(g, a, LLVMBuildLShr(g->b, bits, b, "")); return;
  case LLVMLShr: add_bits(g, a, LLVMBuildShl(g->b, bits, b, "")); return;
  case LLVMAnd: /* a byte mask: the masked-off bytes get no adjoint */
    if (LLVMIsAConstantInt(b)) add_bits(g, a, LLVMBuildAnd(g->b, bits, b, ""));
    else add_bits(g, b, LLVMBuildAnd(g->b, bits, a, ""));
    return;
  case LLVMOr: { /* disjoint: each operand gets the adjoint of the bits it may have set */
    if (LLVMGetIntTypeWidth(t) > 64) break;
    unsigned long long ma = possible_bits(a, 0), mb = possible_bits(b, 0);
    if (ma & mb) break;
    add_bits(g, a, LLVMBuildAnd(g->b, bits, LLVMConstInt(t, ma, 0), ""));
    add_bits(g, b, LLVMBuildAnd(g->b, bits, LLVMConstInt(t, mb, 0), ""));
    return;
  }
  default: break;
  }
  rev_error(g, inst, "reverse mode cannot tell which floats' bits this integer operation combines");
}
