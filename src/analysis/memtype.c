#include "analysis/memtype.h"

#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

static MemType classify_type(LLVMTypeRef t) {
  /* a struct or array at this address: what lies at its start */
  for (;;) {
    LLVMTypeKind k = LLVMGetTypeKind(t);
    if (k == LLVMStructTypeKind && LLVMCountStructElementTypes(t) > 0) t = LLVMStructGetTypeAtIndex(t, 0);
    else if (k == LLVMArrayTypeKind || k == LLVMVectorTypeKind) t = LLVMGetElementType(t);
    else break;
  }
  if (ir_is_fp(t)) return MEMTYPE_FP;
  if (ir_is_ptr(t)) return MEMTYPE_PTR;
  if (ir_is_int(t)) return LLVMGetIntTypeWidth(t) == 8 ? MEMTYPE_UNKNOWN : MEMTYPE_INT; /* i8: raw bytes */
  return MEMTYPE_UNKNOWN;
}

static MemType from_tbaa_tag(LLVMValueRef tag, char *fp_width);

/* The scalar type named by a struct-path TBAA tag !{base, access, offset}: access = !{!"name", ...}. */
static MemType from_tbaa(LLVMValueRef inst) {
  char width;
  return from_tbaa_tag(LLVMGetMetadata(inst, LLVMGetMDKindID("tbaa", 4)), &width);
}

static MemType from_tbaa_tag(LLVMValueRef tag, char *fp_width) {
  *fp_width = 0;
  if (!tag || LLVMGetMDNodeNumOperands(tag) < 3) return MEMTYPE_UNKNOWN;
  LLVMValueRef ops[4];
  if (LLVMGetMDNodeNumOperands(tag) > 4) return MEMTYPE_UNKNOWN;
  LLVMGetMDNodeOperands(tag, ops);
  LLVMValueRef access = ops[1];
  if (!access || LLVMGetMDNodeNumOperands(access) < 1) return MEMTYPE_UNKNOWN;
  LLVMValueRef aops[8];
  if (LLVMGetMDNodeNumOperands(access) > 8) return MEMTYPE_UNKNOWN;
  LLVMGetMDNodeOperands(access, aops);
  unsigned len = 0;
  const char *name = aops[0] ? LLVMGetMDString(aops[0], &len) : NULL;
  if (!name || !len) return MEMTYPE_UNKNOWN;
  if (len == 5 && !strncmp(name, "float", 5)) return *fp_width = 4, MEMTYPE_FP;
  if (len == 6 && !strncmp(name, "double", 6)) return *fp_width = 8, MEMTYPE_FP;
  if (len == 11 && !strncmp(name, "long double", 11)) return MEMTYPE_FP;
  if ((len == 11 && !strncmp(name, "any pointer", 11)) || (len > 2 && name[0] == 'p' && name[1] >= '1' && name[1] <= '9'))
    return MEMTYPE_PTR;
  if (len == 15 && !strncmp(name, "omnipotent char", 15)) return MEMTYPE_UNKNOWN; /* bytes: anything */
  if (!strncmp(name, "vtable", 6)) return MEMTYPE_PTR;
  return MEMTYPE_INT; /* int, long, short, _Bool, enums */
}

/* The type an address was computed in: the element a getelementptr lands on, a stack slot's or a
 * global's type. Byte-offset getelementptrs (i8) say nothing. */
static MemType from_address(LLVMValueRef p) {
  p = ir_strip_pointer_casts(p);
  if (LLVMIsAGetElementPtrInst(p) || (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr)) {
    LLVMTypeRef t = LLVMGetGEPSourceElementType(p);
    unsigned n = (unsigned)LLVMGetNumOperands(p);
    for (unsigned i = 2; i < n; i++) { /* the first index steps over whole elements */
      LLVMTypeKind k = LLVMGetTypeKind(t);
      if (k == LLVMStructTypeKind) {
        LLVMValueRef idx = LLVMGetOperand(p, i);
        if (!LLVMIsAConstantInt(idx)) return MEMTYPE_UNKNOWN;
        t = LLVMStructGetTypeAtIndex(t, (unsigned)LLVMConstIntGetZExtValue(idx));
      } else if (k == LLVMArrayTypeKind || k == LLVMVectorTypeKind) {
        t = LLVMGetElementType(t);
      } else {
        return MEMTYPE_UNKNOWN;
      }
    }
    return classify_type(t);
  }
  if (LLVMIsAAllocaInst(p)) return classify_type(LLVMGetAllocatedType(p));
  if (LLVMIsAGlobalVariable(p)) return classify_type(LLVMGlobalGetValueType(p));
  return MEMTYPE_UNKNOWN;
}

MemType memtype_of_access(LLVMValueRef inst) {
  MemType t = from_tbaa(inst);
  if (t != MEMTYPE_UNKNOWN) return t;
  LLVMValueRef ptr = LLVMIsAStoreInst(inst) ? LLVMGetOperand(inst, 1) : LLVMGetOperand(inst, 0);
  return from_address(ptr);
}

/* ---- what a block of memory holds ---- */

const char *data_kind_name(DataKind k) {
  static const char *const names[] = {"unknown", "double", "float", "pointer", "integer", "mixed"};
  return names[k];
}

static DataKind merge(DataKind a, DataKind b) {
  if (a == DATA_UNKNOWN) return b;
  if (b == DATA_UNKNOWN || a == b) return a;
  return DATA_MIXED;
}

/* Every scalar inside a type, as one kind. */
static DataKind uniform_kind(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMDoubleTypeKind: return DATA_F64;
  case LLVMFloatTypeKind: return DATA_F32;
  case LLVMPointerTypeKind: return DATA_PTR;
  case LLVMIntegerTypeKind: return LLVMGetIntTypeWidth(t) == 8 ? DATA_UNKNOWN : DATA_INT; /* bytes: anything */
  case LLVMArrayTypeKind:
  case LLVMVectorTypeKind: return uniform_kind(LLVMGetElementType(t));
  case LLVMStructTypeKind: {
    DataKind k = DATA_UNKNOWN;
    for (unsigned i = 0, n = LLVMCountStructElementTypes(t); i < n; i++) k = merge(k, uniform_kind(LLVMStructGetTypeAtIndex(t, i)));
    return k;
  }
  default: return DATA_MIXED;
  }
}

/* The type an address points into, from how it was computed. */
static LLVMTypeRef address_type(LLVMValueRef p) {
  p = ir_strip_pointer_casts(p);
  if (LLVMIsAGetElementPtrInst(p) || (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr)) {
    LLVMTypeRef t = LLVMGetGEPSourceElementType(p);
    for (unsigned i = 2, n = (unsigned)LLVMGetNumOperands(p); i < n; i++) {
      LLVMTypeKind k = LLVMGetTypeKind(t);
      if (k == LLVMStructTypeKind) {
        LLVMValueRef idx = LLVMGetOperand(p, i);
        if (!LLVMIsAConstantInt(idx)) return NULL;
        t = LLVMStructGetTypeAtIndex(t, (unsigned)LLVMConstIntGetZExtValue(idx));
      } else if (k == LLVMArrayTypeKind || k == LLVMVectorTypeKind) {
        t = LLVMGetElementType(t);
      } else {
        return NULL;
      }
    }
    return t;
  }
  if (LLVMIsAAllocaInst(p)) return LLVMGetAllocatedType(p);
  if (LLVMIsAGlobalVariable(p)) return LLVMGlobalGetValueType(p);
  return NULL;
}

/* The object an address points into: addresses are computed from it by getelementptr and casts. */
static LLVMValueRef root_of(LLVMValueRef p) {
  for (int i = 0; i < 64; i++) {
    p = ir_strip_pointer_casts(p);
    if (LLVMIsAGetElementPtrInst(p)) p = LLVMGetOperand(p, 0);
    else break;
  }
  return p;
}

static DataKind of_access(LLVMValueRef inst, LLVMTypeRef t) {
  if (ir_is_ptr(t)) return DATA_PTR;
  if (LLVMGetTypeKind(t) == LLVMDoubleTypeKind) return DATA_F64;
  if (LLVMGetTypeKind(t) == LLVMFloatTypeKind) return DATA_F32;
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind || LLVMGetTypeKind(t) == LLVMArrayTypeKind || LLVMGetTypeKind(t) == LLVMStructTypeKind)
    return uniform_kind(t);
  if (ir_is_int(t)) {
    MemType m = memtype_of_access(inst);
    return m == MEMTYPE_INT ? DATA_INT : m == MEMTYPE_PTR ? DATA_PTR : DATA_UNKNOWN;
  }
  return DATA_MIXED;
}

static bool in_list(const ValueList *l, LLVMValueRef v) {
  for (size_t i = 0; i < l->len; i++)
    if (l->data[i] == v) return true;
  return false;
}

/* The pointers that may point into the same object as ptr: through getelementptr and casts, phis and
 * selects, and realloc (which moves an object). */
static void same_object(LLVMValueRef fn, LLVMValueRef ptr, ValueList *objects) {
  vec_push(objects, root_of(ptr));
  for (bool changed = true; changed;) {
    changed = false;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        if (!ir_is_ptr(LLVMTypeOf(i)) || in_list(objects, i)) continue;
        bool related = false;
        if (LLVMIsAPHINode(i)) {
          for (unsigned k = 0, n = LLVMCountIncoming(i); k < n && !related; k++)
            related = in_list(objects, root_of(LLVMGetIncomingValue(i, k)));
        } else if (LLVMIsASelectInst(i)) {
          related = in_list(objects, root_of(LLVMGetOperand(i, 1))) || in_list(objects, root_of(LLVMGetOperand(i, 2)));
        } else if (ir_is_call(i) && !strcmp(ir_called_name(i), "realloc")) {
          related = in_list(objects, root_of(LLVMGetArgOperand(i, 0)));
        }
        if (related) {
          vec_push(objects, i);
          changed = true;
        }
      }
    for (size_t k = 0; k < objects->len; k++) { /* the operands of related phis and selects */
      LLVMValueRef o = objects->data[k];
      if (LLVMIsAPHINode(o))
        for (unsigned j = 0, n = LLVMCountIncoming(o); j < n; j++) {
          LLVMValueRef r = root_of(LLVMGetIncomingValue(o, j));
          if (ir_is_ptr(LLVMTypeOf(r)) && !in_list(objects, r)) {
            vec_push(objects, r);
            changed = true;
          }
        }
      else if (ir_is_call(o) && !strcmp(ir_called_name(o), "realloc")) {
        LLVMValueRef r = root_of(LLVMGetArgOperand(o, 0));
        if (!in_list(objects, r)) {
          vec_push(objects, r);
          changed = true;
        }
      }
    }
  }
}

DataKind memtype_of_data(LLVMValueRef ptr) {
  LLVMTypeRef t = address_type(ptr);
  DataKind k = t ? uniform_kind(t) : DATA_UNKNOWN;
  if (k != DATA_UNKNOWN) return k;
  /* how the function uses the object otherwise */
  LLVMValueRef root = root_of(ptr), fn = NULL;
  if (LLVMIsAInstruction(root)) fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(root));
  else if (LLVMIsAArgument(root)) fn = LLVMGetParamParent(root);
  else if (LLVMIsAInstruction(ptr)) fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(ptr));
  if (!fn) return DATA_UNKNOWN;
  ValueList objects = {0};
  same_object(fn, ptr, &objects);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (LLVMIsALoadInst(i) && in_list(&objects, root_of(LLVMGetOperand(i, 0)))) k = merge(k, of_access(i, LLVMTypeOf(i)));
      else if (LLVMIsAStoreInst(i) && in_list(&objects, root_of(LLVMGetOperand(i, 1))))
        k = merge(k, of_access(i, LLVMTypeOf(LLVMGetOperand(i, 0))));
    }
  vec_free(&objects);
  return k;
}

/* !tbaa.struct = !{offset, size, tag, offset, size, tag, ...} */
static DataKind from_tbaa_struct(LLVMValueRef call) {
  LLVMValueRef md = LLVMGetMetadata(call, LLVMGetMDKindID("tbaa.struct", 11));
  if (!md) return DATA_UNKNOWN;
  unsigned n = LLVMGetMDNodeNumOperands(md);
  if (n == 0 || n % 3 || n > 3 * 64) return DATA_UNKNOWN;
  LLVMValueRef ops[3 * 64];
  LLVMGetMDNodeOperands(md, ops);
  DataKind k = DATA_UNKNOWN;
  for (unsigned i = 2; i < n; i += 3) {
    char width;
    MemType m = from_tbaa_tag(ops[i], &width);
    DataKind f = m == MEMTYPE_FP ? (width == 8 ? DATA_F64 : width == 4 ? DATA_F32 : DATA_MIXED)
                 : m == MEMTYPE_INT ? DATA_INT : m == MEMTYPE_PTR ? DATA_PTR : DATA_UNKNOWN;
    if (f == DATA_UNKNOWN) return DATA_UNKNOWN; /* a char field: could be anything */
    k = merge(k, f);
  }
  return k;
}

DataKind memtype_of_copy(LLVMValueRef call) {
  DataKind k = from_tbaa_struct(call);
  if (k != DATA_UNKNOWN) return k;
  k = memtype_of_data(LLVMGetArgOperand(call, 0));
  if (k == DATA_UNKNOWN && ir_num_call_args(call) > 1 && ir_is_ptr(LLVMTypeOf(LLVMGetArgOperand(call, 1))))
    k = memtype_of_data(LLVMGetArgOperand(call, 1));
  return k;
}
