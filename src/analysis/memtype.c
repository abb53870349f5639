#include "analysis/memtype.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Target.h>

#include "ad/body.h"
#include "analysis/calls.h"
#include "analysis/union_globals.h"
#include "ir/ir.h"
#include "omp/omp.h"

void memtype_mark_loose_aliasing(LLVMModuleRef m) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMAttributeRef a = LLVMCreateStringAttribute(c, MEMTYPE_LOOSE_ALIASING, strlen(MEMTYPE_LOOSE_ALIASING), "", 0);
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    if (!LLVMIsDeclaration(fn)) LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, a);
}

static bool wide_integer(LLVMTypeRef t) { return t && LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) > 8; }

static bool tagged_anything(LLVMValueRef access);
static LLVMValueRef function_of(LLVMValueRef v);
static LLVMTypeRef gep_type(LLVMValueRef p);
static LLVMTypeRef pointee_type(LLVMValueRef p, int depth);
static bool is_union(LLVMTypeRef t);

/* A member array of a union, where no tag marks one (-fno-strict-aliasing): the type of what the
 * getelementptr's base points to the start of, as its callers pass it. Asked once at a time (the
 * callers' types may ask about addresses again). */
static bool union_member(LLVMValueRef p) {
  static bool asking;
  if (asking || LLVMGetTypeKind(LLVMGetGEPSourceElementType(p)) != LLVMArrayTypeKind) return false;
  asking = true;
  LLVMTypeRef whole = pointee_type(ir_strip_pointer_casts(LLVMGetOperand(p, 0)), 0);
  asking = false;
  while (whole && LLVMGetTypeKind(whole) == LLVMArrayTypeKind) whole = LLVMGetElementType(whole);
  return whole && is_union(whole);
}

/* Whether the integer type getelementptr p computes an address in says nothing of the memory: pointer
 * arithmetic on an integer pointer (`long *w; w[i]`) in a file built with -fno-strict-aliasing, or an
 * address the program reads or writes integers at under the tag of memory that may hold anything (a
 * union's `long w[4]` beside `double d[4]`). Elsewhere a struct's or an array's member declared an
 * integer (`long steps[3]` in a struct) is taken at its word. */
static bool untrusted_integer(LLVMValueRef p) {
  LLVMValueRef fn = function_of(p);
  if (!fn || !wide_integer(gep_type(p))) return false;
  if (LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, MEMTYPE_LOOSE_ALIASING, (unsigned)strlen(MEMTYPE_LOOSE_ALIASING)) &&
      (wide_integer(LLVMGetGEPSourceElementType(p)) || union_member(p)))
    return true;
  for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef a = LLVMGetUser(u);
    if ((LLVMIsALoadInst(a) || (LLVMIsAStoreInst(a) && LLVMGetOperand(a, 1) == p)) && tagged_anything(a)) return true;
  }
  return false;
}

static MemType classify_type(LLVMTypeRef t, unsigned long long bytes) {
  /* a struct or array at this address: what lies at its start */
  bool member = false, element = false;
  for (;;) {
    LLVMTypeKind k = LLVMGetTypeKind(t);
    if (k == LLVMStructTypeKind && LLVMCountStructElementTypes(t) > 0) member |= !is_union(t), t = LLVMStructGetTypeAtIndex(t, 0);
    else if (k == LLVMArrayTypeKind || k == LLVMVectorTypeKind) element = true, t = LLVMGetElementType(t);
    else break;
  }
  if (ir_is_fp(t)) return MEMTYPE_FP;
  if (ir_is_ptr(t)) return MEMTYPE_PTR;
  /* i8: raw bytes, but for a struct's own member read or written alone (a char, or a bitfield's storage,
     which clang reads and writes a byte at a time without a type tag) */
  if (ir_is_int(t)) return LLVMGetIntTypeWidth(t) == 8 && (!member || element || bytes > 1) ? MEMTYPE_UNKNOWN : MEMTYPE_INT;
  return MEMTYPE_UNKNOWN;
}

static MemType from_tbaa_tag(LLVMValueRef tag, char *fp_width);

/* A field of a struct tag (!tbaa.struct: offset, size, tag) narrower than any float: a `char tag` (the
 * omnipotent char's tag says its bytes may be anything, but no float or pointer fits in them). */
static bool narrow_field(LLVMValueRef size) {
  return size && LLVMIsAConstantInt(size) && LLVMConstIntGetZExtValue(size) < 4;
}
static LLVMTypeRef address_type(LLVMValueRef p);

/* The scalar type named by a struct-path TBAA tag !{base, access, offset}: access = !{!"name", ...}. */
/* The metadata kind of type tags (a builtin kind: the same number in every context), asked once. */
static unsigned tbaa_kind(void) {
  static unsigned kind;
  if (!kind) kind = LLVMGetMDKindID("tbaa", 4);
  return kind;
}

static MemType from_tbaa(LLVMValueRef inst) {
  char width;
  return from_tbaa_tag(LLVMGetMetadata(inst, tbaa_kind()), &width);
}

/* The name of the scalar type a struct-path TBAA tag !{base, access, offset} gives: access = !{!"name", ...};
 * NULL for none. */
static const char *tag_type_name(LLVMValueRef tag, unsigned *len) {
  *len = 0;
  if (!tag || LLVMGetMDNodeNumOperands(tag) < 3 || LLVMGetMDNodeNumOperands(tag) > 4) return NULL;
  LLVMValueRef ops[4];
  LLVMGetMDNodeOperands(tag, ops);
  LLVMValueRef access = ops[1];
  if (!access || LLVMGetMDNodeNumOperands(access) < 1 || LLVMGetMDNodeNumOperands(access) > 8) return NULL;
  LLVMValueRef aops[8];
  LLVMGetMDNodeOperands(access, aops);
  const char *name = aops[0] ? LLVMGetMDString(aops[0], len) : NULL;
  return name && *len ? name : NULL;
}

/* An access under the tag of memory that may hold anything, wider than a char: clang tags a union's
 * members so, whatever their types. */
static bool tagged_anything(LLVMValueRef access) {
  unsigned len;
  const char *name = tag_type_name(LLVMGetMetadata(access, tbaa_kind()), &len);
  return name && len == 15 && !strncmp(name, "omnipotent char", 15);
}

static MemType from_tbaa_tag(LLVMValueRef tag, char *fp_width) {
  *fp_width = 0;
  unsigned len;
  const char *name = tag_type_name(tag, &len);
  if (!name) return MEMTYPE_UNKNOWN;
  if (len == 5 && !strncmp(name, "float", 5)) return *fp_width = 4, MEMTYPE_FP;
  if (len == 6 && !strncmp(name, "double", 6)) return *fp_width = 8, MEMTYPE_FP;
  if (len == 11 && !strncmp(name, "long double", 11)) return MEMTYPE_FP;
  if ((len == 11 && !strncmp(name, "any pointer", 11)) || (len > 2 && name[0] == 'p' && name[1] >= '1' && name[1] <= '9'))
    return MEMTYPE_PTR;
  if (len == 15 && !strncmp(name, "omnipotent char", 15)) return MEMTYPE_UNKNOWN; /* bytes: anything */
  if (!strncmp(name, "vtable", 6)) return MEMTYPE_PTR;
  return MEMTYPE_INT; /* int, long, short, _Bool, enums */
}

static bool type_layout(LLVMTargetDataRef td, LLVMTypeRef t, unsigned long long base, unsigned long long end, MemLayout *l);

static DataKind uniform_kind(LLVMTypeRef t);

/* A stack slot of integer type that a float is stored or copied into: clang -O0 passes a firstprivate
 * double to an OpenMP region that way (stored as a double, loaded back as an i64), and a program reads a
 * double's bits by memcpy into an unsigned long long. Its type says nothing. */
static bool punned_slot(LLVMValueRef p) {
  p = ir_strip_pointer_casts(p);
  if (!LLVMIsAAllocaInst(p)) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == p && ir_contains_fp(LLVMTypeOf(LLVMGetOperand(user, 0))))
      return true;
    if (ir_is_call(user) && (strstr(ir_called_name(user), "memcpy") || strstr(ir_called_name(user), "memmove")) &&
        ir_strip_pointer_casts(LLVMGetArgOperand(user, 0)) == p) {
      LLVMTypeRef from = address_type(LLVMGetArgOperand(user, 1));
      DataKind k = from ? uniform_kind(from) : DATA_UNKNOWN;
      if (k == DATA_F64 || k == DATA_F32) return true;
    }
  }
  return false;
}

static bool object_layout(LLVMValueRef p, unsigned long long bytes, MemLayout *l);

/* What the bytes [at, at + size) of a layout's pattern hold (at < period): floats, pointers, or neither
 * (integers and padding), or a mixture (unknown); and the floats' width in bits, 0 when mixed. */
static MemType kind_in_layout(const MemLayout *l, unsigned long long at, unsigned long long size, unsigned *fp_bits) {
  *fp_bits = 0;
  if (at + size > l->period) return MEMTYPE_UNKNOWN; /* across two structs */
  bool f32 = false, f64 = false, pointer = false;
  for (unsigned i = 0; i < l->n; i++) {
    const LayoutRun *r = &l->run[i];
    unsigned long long lo = r->offset, hi = r->offset + (unsigned long long)r->count * (r->kind == DATA_F32 ? 4 : 8);
    if (hi <= at || lo >= at + size) continue;
    f32 |= r->kind == DATA_F32;
    f64 |= r->kind == DATA_F64;
    pointer |= r->kind == DATA_PTR;
  }
  if (f32 != f64) *fp_bits = f32 ? 32 : 64;
  bool fp = f32 || f64;
  return fp && pointer ? MEMTYPE_UNKNOWN : fp ? MEMTYPE_FP : pointer ? MEMTYPE_PTR : MEMTYPE_INT;
}

static DataKind object_kind(LLVMValueRef ptr, bool for_access);

/* An access of `size` bytes into a block of one kind throughout (a heap array of doubles). */
static MemType block_access_kind(LLVMValueRef ptr, unsigned long long size, unsigned *fp_bits) {
  switch (object_kind(ptr, true)) {
  case DATA_F64: return size == 8 ? (*fp_bits = 64, MEMTYPE_FP) : MEMTYPE_UNKNOWN;
  case DATA_F32: return size == 4 ? (*fp_bits = 32, MEMTYPE_FP) : MEMTYPE_UNKNOWN;
  case DATA_PTR: return size == 8 ? MEMTYPE_PTR : MEMTYPE_UNKNOWN;
  case DATA_INT: return MEMTYPE_INT;
  default: return MEMTYPE_UNKNOWN;
  }
}

static bool placed_by_accesses(LLVMValueRef ptr, MemLayout *l, unsigned long long *at);
static MemType record_array_kind(LLVMValueRef access, unsigned width, unsigned *bits);

/* What a load or store touches, by the types its address was computed in: the type at the address over
 * the bytes accessed, or, for an address of bytes (getelementptr i8, as the optimiser writes field
 * addresses), the struct the object holds (a struct copied field by field, an int and its padding as one
 * i64). */
static MemType access_kind(LLVMValueRef inst, unsigned *fp_bits) {
  *fp_bits = 0;
  LLVMValueRef ptr = LLVMIsAStoreInst(inst) ? LLVMGetOperand(inst, 1) : LLVMGetOperand(inst, 0);
  LLVMTypeRef vt = LLVMTypeOf(LLVMIsAStoreInst(inst) ? LLVMGetOperand(inst, 0) : inst);
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst))));
  unsigned long long size = LLVMStoreSizeOfType(td, vt);
  LLVMTypeRef at = address_type(ptr);
  MemLayout l = {0};
  MemType k;
  if (!at || (LLVMGetTypeKind(at) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(at) == 8)) {
    unsigned long long phase;
    if (object_layout(ptr, size, &l)) phase = l.phase;
    else if (ir_is_int(vt) && !LLVMGetMetadata(inst, tbaa_kind()) && placed_by_accesses(ptr, &l, &phase)) {
    } else if (LLVMGetTypeKind(vt) != LLVMVectorTypeKind && (k = record_array_kind(inst, (unsigned)size * 8, fp_bits)) != MEMTYPE_UNKNOWN)
      return k;
    else
      return block_access_kind(ptr, size, fp_bits);
    k = kind_in_layout(&l, phase, size, fp_bits);
  } else {
    if (!type_layout(td, at, 0, size, &l)) return MEMTYPE_UNKNOWN;
    l.period = (unsigned)size;
    k = kind_in_layout(&l, 0, size, fp_bits);
    if (k == MEMTYPE_INT) k = classify_type(at, size);
  }
  return k == MEMTYPE_INT && punned_slot(ptr) ? MEMTYPE_UNKNOWN : k;
}

/* Where a pointer lies in the object it points into: a constant byte offset, plus variable indices that
 * each move by a multiple of a stride. */
typedef struct {
  LLVMValueRef root; /* the object: what the getelementptrs start from */
  long long offset; /* negative where a getelementptr steps back (a loop's base one element early) */
  unsigned long long strides[16];
  unsigned nstrides;
  /* how many of the strides index an array the program declares (`c->buf[c->idx]` in a struct's `double
     buf[64]`), and the bytes past offset such indices reach at most: (length - 1) times the stride each */
  unsigned bounded;
  unsigned long long reach;
} Placement;

static LLVMValueRef root_of(LLVMValueRef p);
static LLVMTypeRef strip_arrays(LLVMTypeRef t);
static bool placement(LLVMValueRef p, Placement *pl);
static bool place_gep(LLVMTargetDataRef td, LLVMValueRef p, Placement *pl);

/* The member of struct t (of at least one member) that byte `at` lies in (or the padding after it). */
static unsigned member_at(LLVMTargetDataRef td, LLVMTypeRef t, unsigned long long at) {
  unsigned n = LLVMCountStructElementTypes(t), i = 0;
  while (i + 1 < n && LLVMOffsetOfElement(td, t, i + 1) <= at) i++;
  return i;
}

/* Where the variable indices step over the records of an array inside the record t (a reverb's `comb
 * c[2]`, indexed by the comb; the reverbs too, an array of them), not over t's alone: the innermost record
 * that each index steps over whole, and the access's fixed place in it (no strides left). */
static bool member_record(LLVMTargetDataRef td, LLVMTypeRef *t, Placement *pl) {
  if (pl->offset < 0 || !pl->nstrides || pl->nstrides > 16) return false;
  unsigned long long at = (unsigned long long)pl->offset;
  bool whole[16] = {false}; /* index i steps over whole objects of a type met on the way */
  LLVMTypeRef cur = *t;
  for (int depth = 0; depth < 8; depth++) {
    unsigned long long size = LLVMABISizeOfType(td, cur);
    if (!size) return false;
    at %= size; /* past the first: in a later one of an array of them */
    bool all = true;
    for (unsigned i = 0; i < pl->nstrides; i++) all &= (whole[i] |= pl->strides[i] % size == 0);
    LLVMTypeKind k = LLVMGetTypeKind(cur);
    if (k == LLVMStructTypeKind && all) {
      if (!depth) return false; /* t's own records: not a member's */
      *t = cur, pl->offset = (long long)at, pl->nstrides = 0;
      return true;
    }
    if (k == LLVMStructTypeKind) {
      if (!LLVMCountStructElementTypes(cur)) return false;
      unsigned i = member_at(td, cur, at);
      at -= LLVMOffsetOfElement(td, cur, i);
      cur = LLVMStructGetTypeAtIndex(cur, i);
    } else if (k == LLVMArrayTypeKind) {
      cur = LLVMGetElementType(cur);
    } else {
      return false;
    }
  }
  return false;
}

static LLVMModuleRef module_of(LLVMValueRef v);
static bool struct_layout(LLVMModuleRef m, LLVMTypeRef t, bool open, const Placement *pl, unsigned long long bytes, MemLayout *l);

static bool accessed_layout(LLVMValueRef p, LLVMValueRef skip, MemLayout *l);

/* An untagged integer access at a fixed offset into a block no type describes (a heap struct the
 * optimiser addresses by byte offsets): the layout the block's accesses give, and where in it the access
 * is. Not asked again while the accesses are gathered (they ask about their own kinds). */
static bool placed_by_accesses(LLVMValueRef ptr, MemLayout *l, unsigned long long *at) {
  static bool gathering;
  Placement pl;
  if (gathering || !placement(ptr, &pl) || pl.nstrides || pl.offset < 0) return false;
  gathering = true;
  bool known = accessed_layout(pl.root, NULL, l);
  gathering = false;
  *at = (unsigned long long)pl.offset;
  return known && *at < l->period;
}


/* Whether t holds a scalar of kind k anywhere (a member, an array's element); an integer of `bits` bits. */
static bool holds(LLVMTypeRef t, LLVMTypeKind k, unsigned bits) {
  LLVMTypeKind tk = LLVMGetTypeKind(t);
  if (tk == LLVMArrayTypeKind || tk == LLVMVectorTypeKind) return holds(LLVMGetElementType(t), k, bits);
  if (tk == LLVMStructTypeKind) {
    for (unsigned i = 0, n = LLVMCountStructElementTypes(t); i < n; i++)
      if (holds(LLVMStructGetTypeAtIndex(t, i), k, bits)) return true;
    return false;
  }
  return tk == k && (k != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(t) == bits);
}

/* Whether t holds floats or pointers anywhere (an integer access into it may move their bytes). */
static bool holds_floats_or_pointers(LLVMTypeRef t) {
  return holds(t, LLVMDoubleTypeKind, 0) || holds(t, LLVMFloatTypeKind, 0) || holds(t, LLVMPointerTypeKind, 0);
}

/* The element type of the array of scalars that the byte at `at` of type t lies in (a member indexed at
 * run time: `long idx[3]`, `double vals[4]` in a record), or NULL. */
static LLVMTypeRef array_element_at(LLVMTargetDataRef td, LLVMTypeRef t, unsigned long long at) {
  for (;;) {
    LLVMTypeKind k = LLVMGetTypeKind(t);
    if (k == LLVMStructTypeKind) {
      if (!LLVMCountStructElementTypes(t)) return NULL;
      unsigned i = member_at(td, t, at);
      at -= LLVMOffsetOfElement(td, t, i);
      t = LLVMStructGetTypeAtIndex(t, i);
    } else if (k == LLVMArrayTypeKind || k == LLVMVectorTypeKind) {
      LLVMTypeRef e = LLVMGetElementType(t);
      LLVMTypeKind ek = LLVMGetTypeKind(e);
      if (ek != LLVMStructTypeKind && ek != LLVMArrayTypeKind && ek != LLVMVectorTypeKind) return e;
      unsigned long long size = LLVMABISizeOfType(td, e);
      if (!size) return NULL;
      at %= size;
      t = e;
    } else {
      return NULL;
    }
  }
}

/* Where byte `offset` of an object of type t lies: the element type of the member array there, or, in an
 * array of scalars, its element; NULL elsewhere. */
static LLVMTypeRef element_at(LLVMTargetDataRef td, LLVMTypeRef t, long long offset) {
  LLVMTypeRef record = strip_arrays(t);
  if (LLVMGetTypeKind(record) != LLVMStructTypeKind) return LLVMGetTypeKind(t) == LLVMArrayTypeKind ? record : NULL;
  long long size = (long long)LLVMABISizeOfType(td, record), at = size ? offset % size : 0;
  return array_element_at(td, record, (unsigned long long)(at < 0 ? at + size : at));
}

/* What a word of `width` bits moves as an element of type e (NULL: unknown). */
static MemType word_of_element(LLVMTypeRef e, unsigned width, unsigned *bits) {
  *bits = 0;
  LLVMTypeKind k = e ? LLVMGetTypeKind(e) : LLVMVoidTypeKind;
  if (k == LLVMIntegerTypeKind) return LLVMGetIntTypeWidth(e) == width ? MEMTYPE_INT : MEMTYPE_UNKNOWN;
  if ((k == LLVMDoubleTypeKind && width == 64) || (k == LLVMFloatTypeKind && width == 32)) return *bits = width, MEMTYPE_FP;
  return k == LLVMPointerTypeKind && width == 64 ? MEMTYPE_PTR : MEMTYPE_UNKNOWN;
}

/* An integer access of `width` bits into an object made as records that mix floats, pointers and
 * integers (t): by the bytes it covers where its offset in the record is known; elsewhere an element of
 * the member array it lands in (`long idx[3]` read at a variable index, `double vals[4]` copied as
 * words), or a word of a copy that may carry a float (a generic swap through `long *` of records), which
 * is unknown. */
static MemType punned_record(LLVMValueRef access, LLVMTypeRef t, unsigned width, unsigned *bits) {
  LLVMTypeRef record = strip_arrays(t);
  LLVMValueRef p = LLVMGetOperand(access, LLVMIsAStoreInst(access) ? 1 : 0);
  Placement pl;
  /* (placed from the object itself: not from a constant getelementptr, a field of a global) */
  if (LLVMGetTypeKind(record) != LLVMStructTypeKind || !placement(p, &pl) || pl.root != root_of(p))
    return holds(t, LLVMIntegerTypeKind, width) ? MEMTYPE_INT : MEMTYPE_UNKNOWN;
  LLVMModuleRef m = module_of(access);
  MemLayout l;
  LLVMTypeRef member = t;
  Placement in_member = pl;
  if (struct_layout(m, record, false, &pl, width / 8, &l) ||
      (member_record(LLVMGetModuleDataLayout(m), &member, &in_member) && struct_layout(m, member, false, &in_member, width / 8, &l))) {
    MemType k = kind_in_layout(&l, l.phase, width / 8, bits);
    if (k == MEMTYPE_FP && *bits == width) return MEMTYPE_FP;
    *bits = 0;
    return k == MEMTYPE_INT ? MEMTYPE_INT : k == MEMTYPE_PTR && width == 64 ? MEMTYPE_PTR : MEMTYPE_UNKNOWN;
  }
  /* a variable index that is not a whole record's: into a member array, or a word of a copy */
  return word_of_element(element_at(LLVMGetModuleDataLayout(m), record, pl.offset), width, bits);
}

/* The argument a pointer read from a stack slot holds where the slot is only ever set to it, directly or
 * through other such slots (at -O0 `long *w = p;` copies the parameter's slot into the local's); else p. */
static LLVMValueRef slot_argument(LLVMValueRef p) {
  LLVMValueRef v = ir_stored_once(p);
  return LLVMIsAArgument(v) ? v : p;
}

static DataKind merge(DataKind a, DataKind b);

/* A block malloc, calloc, realloc or operator new returns: its start, typed as the function indexes it. */
static bool fresh_block(LLVMValueRef p) {
  if (!ir_is_call(p)) return false;
  CallKind k = call_classify(p, NULL);
  return (k == CALL_ALLOC && call_alloc_slot(p) < 0) || k == CALL_REALLOC;
}

/* The type an object was made with: a local's, a global's, what a parameter's callers pass (`depth`
 * calls away), what a fresh block's function indexes it as; NULL for any other root. */
static LLVMTypeRef made_type(LLVMValueRef root, int depth) {
  if (LLVMIsAAllocaInst(root)) return LLVMGetAllocatedType(root);
  if (LLVMIsAGlobalVariable(root)) return LLVMGlobalGetValueType(root);
  return LLVMIsAArgument(root) || fresh_block(root) ? pointee_type(root, depth) : NULL;
}

static DataKind kind_inside(LLVMTypeRef t);

/* The records an object nothing else describes is indexed as (a pointer read from memory: an array of
 * reverbs a parallel region reads through its shared variable, `&rv[ch]`, which main's writes, pointers
 * and integers beside doubles, made mixed memory): the struct type of the getelementptr taken directly on
 * the object on the way to p; NULL where there is none. */
static LLVMTypeRef records_indexed(LLVMValueRef p, LLVMValueRef root) {
  for (int depth = 0; depth < 16 && p != root; depth++) {
    p = ir_strip_pointer_casts(p);
    if (!LLVMIsAGetElementPtrInst(p)) return NULL;
    LLVMTypeRef t = LLVMGetGEPSourceElementType(p);
    if (ir_strip_pointer_casts(LLVMGetOperand(p, 0)) == root)
      return LLVMGetTypeKind(strip_arrays(t)) == LLVMStructTypeKind ? t : NULL;
    p = LLVMGetOperand(p, 0);
  }
  return NULL;
}

/* The element type of the member array a caller passes a pointer into, by the object it points into (a
 * record's `double vals[4]` passed as `dst->vals`, which the optimiser writes as a byte offset). */
static LLVMTypeRef member_passed(LLVMValueRef passed) {
  Placement pl;
  if (!placement(passed, &pl)) return NULL;
  LLVMTypeRef t = made_type(slot_argument(pl.root), 1);
  return t ? element_at(LLVMGetModuleDataLayout(module_of(passed)), t, pl.offset) : NULL;
}

/* The kinds of what the callers of arg's function pass for it, merged, where pointee_type knows none:
 * they pass different types (a swap of words called on doubles and on pointers), or pointers into
 * member arrays. */
static DataKind passed_kinds(LLVMValueRef arg) {
  LLVMValueRef called = ad_body_original(LLVMGetParamParent(arg));
  DataKind k = DATA_UNKNOWN;
  for (LLVMUseRef u = LLVMGetFirstUse(called); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef passed = call_site_argument(LLVMGetUser(u), called, ir_param_index(arg));
    LLVMTypeRef t = passed ? pointee_type(passed, 1) : NULL;
    if (t) k = merge(k, uniform_kind(t));
    else if (passed && (t = member_passed(passed))) k = merge(k, kind_inside(t));
  }
  return k;
}

static void same_object(LLVMValueRef fn, LLVMValueRef ptr, ValueList *objects, ValueList *slots_out);

/* The top-level member of an object made as t that byte `at` lies in (records in an array: of the record),
 * or -1 where t is not made of records (every access then counts as the same member). */
static long member_index(LLVMTargetDataRef td, LLVMTypeRef t, long long at) {
  LLVMTypeRef record = strip_arrays(t);
  if (LLVMGetTypeKind(record) != LLVMStructTypeKind || !LLVMCountStructElementTypes(record)) return -1;
  long long size = (long long)LLVMABISizeOfType(td, record);
  at = size ? at % size : 0;
  if (at < 0) at += size;
  return (long)member_at(td, record, (unsigned long long)at);
}

/* Where an integer access lies in the object asked about: the member `member` of type t (member_index),
 * or, where the object is not made of records (member -1), bytes [lo, hi) (hi LLONG_MAX where it moves by
 * a variable index, taken to be at least 0). */
typedef struct {
  LLVMTypeRef t;
  long member;
  long long lo, hi;
} Reach;

static LLVMValueRef callee_param(LLVMValueRef fn, LLVMValueRef i, unsigned a, LLVMValueRef *param);

/* The lowest byte of objects a phi or select among them may point at, its other incoming pointers
 * aside: `p = cond ? other : &t->data[0]` reaches a record's array, never its header, though the select is
 * one object with the record. Indices added in loops count as non-negative, as elsewhere here. */
static long long merged_offset(const ValueList *objects, LLVMValueRef merged, int depth) {
  unsigned n = LLVMIsAPHINode(merged) ? LLVMCountIncoming(merged) : LLVMIsASelectInst(merged) ? 2 : 0;
  long long lowest = LLONG_MAX;
  for (unsigned k = 0; k < n && depth < 8; k++) {
    Placement pl;
    LLVMValueRef in = LLVMIsAPHINode(merged) ? LLVMGetIncomingValue(merged, k) : LLVMGetOperand(merged, k + 1);
    if (!placement(in, &pl)) return 0;
    if (pl.root == merged || !ir_list_has(objects, pl.root)) continue; /* stepped on from itself, or another object */
    long long at = pl.offset + merged_offset(objects, pl.root, depth + 1);
    if (at < lowest) lowest = at;
  }
  return n && lowest != LLONG_MAX ? lowest : 0;
}

/* The kinds of the floats and pointers fn reads and writes in objects (its accesses of other types left
 * out), and the functions it passes them to, a call or two down, where they meet r (all of them where r
 * is NULL); objects' offset 0 lying at byte `base` of the object; DATA_UNKNOWN where there are none. */
static DataKind typed_accesses_in(LLVMValueRef fn, const ValueList *objects, const Reach *r, long long base, int depth) {
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(LLVMGetGlobalParent(fn));
  DataKind k = DATA_UNKNOWN;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      Placement pl;
      if (ir_is_call(i) && depth < 2) {
        for (unsigned a = 0, n = ir_num_call_args(i); a < n; a++) {
          LLVMValueRef param, callee, arg = LLVMGetArgOperand(i, a);
          if (!ir_is_ptr(LLVMTypeOf(arg)) || !placement(arg, &pl) || !ir_list_has(objects, pl.root) ||
              !(callee = callee_param(fn, i, a, &param)))
            continue;
          ValueList inner = {0};
          same_object(callee, param, &inner, NULL);
          /* passed at a variable offset: where its accesses land is not known */
          k = merge(k, typed_accesses_in(callee, &inner, pl.nstrides ? NULL : r, base + pl.offset + merged_offset(objects, pl.root, 0), depth + 1));
          vec_free(&inner);
        }
        continue;
      }
      bool store = LLVMIsAStoreInst(i);
      if (!store && !LLVMIsALoadInst(i)) continue;
      LLVMValueRef addr = LLVMGetOperand(i, store ? 1 : 0);
      LLVMTypeRef vt = LLVMTypeOf(store ? LLVMGetOperand(i, 0) : i);
      if (ir_is_int(ir_scalar_type(vt)) || !ir_list_has(objects, root_of(addr))) continue;
      if (r && placement(addr, &pl) && ir_list_has(objects, pl.root)) {
        /* indices of declared arrays stay in them (a ring buffer's doubles before its integer fields) */
        long long at = base + pl.offset + merged_offset(objects, pl.root, 0), size = (long long)LLVMStoreSizeOfType(td, vt);
        long long end = !pl.nstrides ? at + size : pl.bounded == pl.nstrides ? at + (long long)pl.reach + size : LLONG_MAX;
        if (r->member >= 0 ? member_index(td, r->t, at) != r->member : end <= r->lo || at >= r->hi) continue;
      }
      k = merge(k, kind_inside(ir_scalar_type(vt)));
    }
  return k;
}

/* typed_accesses_in for an object (a local, a fresh block) in its own function. */
static DataKind object_typed_accesses(LLVMValueRef object, const Reach *r) {
  LLVMValueRef fn = function_of(object);
  ValueList objects = {0};
  same_object(fn, object, &objects, NULL);
  DataKind k = typed_accesses_in(fn, &objects, r, 0, 0);
  vec_free(&objects);
  return k;
}

/* For an integer access at a variable index into a fresh block of no type (malloc'd doubles copied as
 * `long` words, the copy inlined): what the function's other accesses to the block read and write, one
 * kind of floats or pointers. Unknown where an access at a fixed offset may be a header's (a count before
 * the doubles), or where they mix. */
static DataKind walked_block_kind(LLVMValueRef access, LLVMValueRef block) {
  Placement pl;
  if (!placement(LLVMGetOperand(access, LLVMIsAStoreInst(access) ? 1 : 0), &pl) || !pl.nstrides) return DATA_UNKNOWN;
  return object_typed_accesses(block, NULL);
}

/* The value the program stores into a local variable whose address it hands to parallel regions (a
 * pointer the region shares with its caller), where it is stored once; else NULL. */
static LLVMValueRef shared_variable_value(LLVMValueRef slot) {
  LLVMValueRef only = NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user) || LLVMIsAIntrinsicInst(user)) continue;
    if (ir_is_call(user) && call_classify(user, NULL) == CALL_OMP && omp_classify(user) == OMP_FORK) continue;
    if (!LLVMIsAStoreInst(user) || LLVMGetOperand(user, 1) != slot || only) return NULL;
    only = LLVMGetOperand(user, 0);
  }
  return only;
}

/* Objects made of integers that their function uses as storage for floats or pointers (`long buf[8]`, or a
 * record's `unsigned w[8]`, written through `double *` or `float *`, as code built with
 * -fno-strict-aliasing may): the kinds of floats and pointers stored and read in the member that p
 * points into, for a local or a fresh block, or for what callers pass for a parameter (a few calls up),
 * at the offset they pass it at; a parallel region's load of a pointer its caller shares is followed to
 * what the caller stores in that variable. */
static DataKind reused_kind(LLVMValueRef p, unsigned bytes, long long extra, bool strided, int depth) {
  Placement pl;
  if (!placement(p, &pl)) return DATA_UNKNOWN;
  LLVMValueRef root = slot_argument(pl.root);
  long long at = pl.offset + extra;
  strided = strided || pl.nstrides;
  if (LLVMIsAAllocaInst(root) || fresh_block(root)) {
    LLVMTypeRef t = made_type(root, 0);
    Reach r = {t, t ? member_index(LLVMGetModuleDataLayout(module_of(root)), t, at) : -1, at, strided ? LLONG_MAX : at + bytes};
    return object_typed_accesses(root, &r);
  }
  LLVMValueRef from = LLVMIsALoadInst(root) ? ir_strip_pointer_casts(LLVMGetOperand(root, 0)) : NULL;
  bool shared = from && LLVMIsAArgument(from); /* root: loaded from the variable a caller shares */
  LLVMValueRef param = shared ? from : root;
  if (!LLVMIsAArgument(param) || depth >= 3) return DATA_UNKNOWN;
  LLVMValueRef called = ad_body_original(LLVMGetParamParent(param));
  DataKind k = DATA_UNKNOWN;
  for (LLVMUseRef u = LLVMGetFirstUse(called); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef passed = call_site_argument(LLVMGetUser(u), called, ir_param_index(param));
    if (passed && shared) {
      LLVMValueRef slot = ir_strip_pointer_casts(passed);
      passed = LLVMIsAAllocaInst(slot) ? shared_variable_value(slot) : NULL;
    }
    if (passed) k = merge(k, reused_kind(passed, bytes, at, strided, depth + 1));
  }
  return k;
}

/* An access into an array of records the program indexes, as a whole record's index (`r->ap[i].idx`, a
 * getelementptr over [2 x %struct.Allpass] in a block of no type, which may hold other things before the
 * array): what the record holds there, placed from the array's start; unknown where no such array is. */
static MemType record_array_kind(LLVMValueRef access, unsigned width, unsigned *bits) {
  LLVMValueRef at = LLVMGetOperand(access, LLVMIsAStoreInst(access) ? 1 : 0), p = at, array = NULL;
  for (int depth = 0; depth < 16 && !array; depth++) {
    p = ir_strip_pointer_casts(p);
    if (!LLVMIsAGetElementPtrInst(p)) return MEMTYPE_UNKNOWN;
    LLVMTypeRef t = LLVMGetGEPSourceElementType(p);
    if (LLVMGetTypeKind(t) == LLVMArrayTypeKind && LLVMGetTypeKind(strip_arrays(t)) == LLVMStructTypeKind) array = p;
    else p = LLVMGetOperand(p, 0);
  }
  LLVMTypeRef record = array ? strip_arrays(LLVMGetGEPSourceElementType(array)) : NULL;
  if (!record || !holds_floats_or_pointers(record) || is_union(record)) return MEMTYPE_UNKNOWN;
  LLVMModuleRef m = module_of(access);
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
  Placement pl = {0};
  for (p = at; (p = ir_strip_pointer_casts(p)) != LLVMGetOperand(array, 0); p = LLVMGetOperand(p, 0))
    if (!place_gep(td, p, &pl)) return MEMTYPE_UNKNOWN;
  MemLayout l;
  if (!struct_layout(m, record, false, &pl, width / 8, &l)) return MEMTYPE_UNKNOWN;
  MemType k = kind_in_layout(&l, l.phase, width / 8, bits);
  if (k == MEMTYPE_FP && *bits == width) return MEMTYPE_FP;
  *bits = 0;
  return k == MEMTYPE_INT ? MEMTYPE_INT : k == MEMTYPE_PTR && width == 64 ? MEMTYPE_PTR : MEMTYPE_UNKNOWN;
}

/* What an access taken for an integer's really moves where the object it reads or writes is, by the
 * type it was made with (a local, a global, what every caller passes), an array of floats: a `long *`
 * copy of doubles, which C's aliasing rule makes undefined, but whose primal every compiler builds as
 * written; taken for integers, its derivative was zero. Floats of the access's width (*bits), or unknown
 * (a double's halves through `uint32_t *`: refused where they meet active data); else integers. */
static MemType punned_kind_of(LLVMValueRef inst, unsigned *bits, bool tagged_int) {
  *bits = 0;
  LLVMTypeRef vt = LLVMTypeOf(LLVMIsAStoreInst(inst) ? LLVMGetOperand(inst, 0) : inst), et = ir_scalar_type(vt);
  if (LLVMGetTypeKind(et) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(et) < 16) return MEMTYPE_INT;
  /* a vector of integers (a v2u view of doubles) asks the same of its lanes */
  bool vector = LLVMGetTypeKind(vt) == LLVMVectorTypeKind;
  unsigned width = LLVMGetIntTypeWidth(et);
  LLVMValueRef root = root_of(LLVMGetOperand(inst, LLVMIsAStoreInst(inst) ? 1 : 0));
  root = slot_argument(root);
  LLVMTypeRef t = made_type(root, 0), indexed = t || !LLVMIsALoadInst(root) ? NULL : records_indexed(LLVMGetOperand(inst, LLVMIsAStoreInst(inst) ? 1 : 0), root);
  if (indexed && !vector && holds_floats_or_pointers(indexed)) {
    MemType k = punned_record(inst, indexed, width, bits); /* where the records' layout answers */
    if (k != MEMTYPE_UNKNOWN) return k;
  }
  if (!vector) { /* the record the program indexes, which the block's type may hold in a member array */
    MemType k = record_array_kind(inst, width, bits);
    if (k != MEMTYPE_UNKNOWN) return k;
  }
  DataKind k = t                         ? uniform_kind(t)
               : LLVMIsAArgument(root)   ? passed_kinds(root)
               : fresh_block(root)       ? walked_block_kind(inst, root)
                                         : DATA_UNKNOWN;
  if (!t && k == DATA_MIXED) return MEMTYPE_UNKNOWN;
  if (k == DATA_INT || k == DATA_UNKNOWN) {
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(module_of(inst));
    DataKind reused = reused_kind(LLVMGetOperand(inst, LLVMIsAStoreInst(inst) ? 1 : 0), (unsigned)LLVMStoreSizeOfType(td, vt), 0, false, 0);
    if (reused == DATA_MIXED) return MEMTYPE_UNKNOWN;
    if (reused != DATA_UNKNOWN) k = reused;
  }
  if (k == DATA_MIXED && holds_floats_or_pointers(t))
    return vector ? MEMTYPE_UNKNOWN : punned_record(inst, t, width, bits);
  if (k == DATA_PTR) return width == 64 && !vector ? MEMTYPE_PTR : MEMTYPE_UNKNOWN;
  if (k == DATA_UNKNOWN && !tagged_int) return MEMTYPE_UNKNOWN;
  if (k != DATA_F64 && k != DATA_F32) return MEMTYPE_INT;
  if (width != (k == DATA_F64 ? 64u : 32u)) return MEMTYPE_UNKNOWN;
  *bits = width;
  return MEMTYPE_FP;
}

static MemType punned_kind(LLVMValueRef inst, unsigned *bits) { return punned_kind_of(inst, bits, true); }

/* Whether v is computed as a number by integer arithmetic (a sum, a product, a quotient, a float
 * converted to an integer, through widening and narrowing): never a float's bits on their way. */
static bool integer_arithmetic(LLVMValueRef v) {
  for (int depth = 0; depth < 8 && LLVMIsAInstruction(v); depth++) {
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMZExt: case LLVMSExt: case LLVMTrunc: v = LLVMGetOperand(v, 0); continue;
    case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMSDiv: case LLVMUDiv: case LLVMSRem: case LLVMURem:
    case LLVMFPToSI: case LLVMFPToUI: return true;
    default: return false;
    }
  }
  return false;
}

/* Whether the integer a load reads is used only as a number: an index, a count compared or computed
 * with, converted to a float's value. A float's bits on their way would be stored, returned or passed. */
static bool used_as_number(LLVMValueRef v, int depth) {
  if (depth > 4) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsAInstruction(user)) return false;
    switch (LLVMGetInstructionOpcode(user)) {
    case LLVMGetElementPtr: if (LLVMGetOperand(user, 0) == v) return false; continue;
    case LLVMICmp: case LLVMSIToFP: case LLVMUIToFP: case LLVMSwitch: continue;
    case LLVMZExt: case LLVMSExt: case LLVMTrunc: case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMSDiv:
    case LLVMUDiv: case LLVMSRem: case LLVMURem:
      if (!used_as_number(user, depth + 1)) return false;
      continue;
    default: return false;
    }
  }
  return true;
}

/* An integer access with neither a tag nor a trusted address type (`long *p; p[i]` built with
 * -fno-strict-aliasing): what the object it reads or writes was made to hold there, where that is known
 * (a helper over a record's `long idx[3]`: integers; over its `double vals[4]`: doubles). */
static MemType untagged_kind(LLVMValueRef inst, unsigned *bits, bool by_value) {
  LLVMValueRef fn = function_of(inst);
  *bits = 0;
  if (!fn || !LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, MEMTYPE_LOOSE_ALIASING, (unsigned)strlen(MEMTYPE_LOOSE_ALIASING)) ||
      LLVMGetMetadata(inst, tbaa_kind()))
    return MEMTYPE_UNKNOWN;
  MemType k = punned_kind_of(inst, bits, false);
  if (k != MEMTYPE_UNKNOWN || !by_value) return k;
  /* nothing says what the object holds there: the value itself may (an index list's entries), for this
     access only: a record's integer key read alone says nothing of the record (of_access) */
  bool number = LLVMIsAStoreInst(inst) ? integer_arithmetic(LLVMGetOperand(inst, 0)) : used_as_number(inst, 0);
  return number ? MEMTYPE_INT : MEMTYPE_UNKNOWN;
}

static MemType kind_of_access(LLVMValueRef inst, bool by_value) {
  MemType t = from_tbaa(inst);
  unsigned bits;
  if (t == MEMTYPE_UNKNOWN) t = access_kind(inst, &bits);
  if (t == MEMTYPE_UNKNOWN) t = union_global_kind(inst, &bits); /* analysis/union_globals.h */
  if (t == MEMTYPE_UNKNOWN) return untagged_kind(inst, &bits, by_value);
  return t == MEMTYPE_INT ? punned_kind(inst, &bits) : t;
}

MemType memtype_of_access(LLVMValueRef inst) { return kind_of_access(inst, true); }

unsigned memtype_fp_bits(LLVMValueRef inst) {
  char width;
  MemType t = from_tbaa_tag(LLVMGetMetadata(inst, tbaa_kind()), &width);
  if (t == MEMTYPE_FP) return 8u * (unsigned)width;
  unsigned bits;
  MemType a = access_kind(inst, &bits);
  if (a == MEMTYPE_FP) return bits;
  if (a == MEMTYPE_UNKNOWN && (a = union_global_kind(inst, &bits)) == MEMTYPE_FP) return bits;
  if (t == MEMTYPE_UNKNOWN && a == MEMTYPE_UNKNOWN) return untagged_kind(inst, &bits, true) == MEMTYPE_FP ? bits : 0;
  return (t == MEMTYPE_INT || a == MEMTYPE_INT) && punned_kind(inst, &bits) == MEMTYPE_FP ? bits : 0;
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

static bool is_union(LLVMTypeRef t) {
  const char *name = LLVMGetTypeKind(t) == LLVMStructTypeKind ? LLVMGetStructName(t) : NULL;
  return name && !strncmp(name, "union.", 6);
}

/* Every scalar inside a type, as one kind; a union inside it mixes kinds (clang types a union as its
 * first member: type_layout). */
static DataKind kind_inside(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMDoubleTypeKind: return DATA_F64;
  case LLVMFloatTypeKind: return DATA_F32;
  case LLVMPointerTypeKind: return DATA_PTR;
  case LLVMIntegerTypeKind: return LLVMGetIntTypeWidth(t) == 8 ? DATA_UNKNOWN : DATA_INT; /* bytes: anything */
  case LLVMArrayTypeKind:
  case LLVMVectorTypeKind: return kind_inside(LLVMGetElementType(t));
  case LLVMStructTypeKind: {
    if (is_union(t)) return DATA_MIXED;
    DataKind k = DATA_UNKNOWN;
    for (unsigned i = 0, n = LLVMCountStructElementTypes(t); i < n; i++) k = merge(k, kind_inside(LLVMStructGetTypeAtIndex(t, i)));
    return k;
  }
  default: return DATA_MIXED;
  }
}

/* The kind of a type, as kind_inside, but a union (or an array of them) says nothing: what the program
 * stores and loads there does. */
static DataKind uniform_kind(LLVMTypeRef t) {
  LLVMTypeRef e = t;
  while (LLVMGetTypeKind(e) == LLVMArrayTypeKind) e = LLVMGetElementType(e);
  return is_union(e) ? DATA_UNKNOWN : kind_inside(t);
}

/* The type at the end of a getelementptr's indices. */
static LLVMTypeRef gep_type(LLVMValueRef p) {
  LLVMTypeRef t = LLVMGetGEPSourceElementType(p);
  /* a byte offset into a global (`getelementptr (i8, @u, 8)`, a copy of an array's tail): its type, where
     every offset holds the same (an array of one scalar type); a struct's offset says which field, which
     the type alone does not (an int after a double: an f2c COMMON's counter under -fno-strict-aliasing
     was taken for the double's low half) */
  if (LLVMIsAConstantExpr(p) && LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) == 8) {
    LLVMTypeRef base = address_type(LLVMGetOperand(p, 0)), e = base;
    while (e && LLVMGetTypeKind(e) == LLVMArrayTypeKind) e = LLVMGetElementType(e);
    return e && (ir_is_fp(e) || ir_is_ptr(e) || ir_is_int(e)) ? base : NULL;
  }
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

/* The type an address points into, from how it was computed (not an integer type untrusted_integer
 * doubts). */
static LLVMTypeRef address_type(LLVMValueRef p) {
  p = ir_strip_pointer_casts(p);
  if (LLVMIsAGetElementPtrInst(p) && LLVMGetNumOperands(p) == 2 && ir_is_int(LLVMGetGEPSourceElementType(p)) &&
      LLVMGetIntTypeWidth(LLVMGetGEPSourceElementType(p)) == 8) {
    /* a byte offset, as the optimiser writes every constant one (`&u[1]` of a local `double u[6]`): into
       an array of one scalar type, that type; else its i8 says nothing */
    LLVMTypeRef base = address_type(LLVMGetOperand(p, 0)), e = base;
    while (e && LLVMGetTypeKind(e) == LLVMArrayTypeKind) e = LLVMGetElementType(e);
    return base && e != base && (ir_is_fp(e) || ir_is_ptr(e)) ? base : NULL;
  }
  if (LLVMIsAGetElementPtrInst(p)) return untrusted_integer(p) ? NULL : gep_type(p);
  if (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr) return gep_type(p);
  if (LLVMIsAAllocaInst(p)) return LLVMGetAllocatedType(p);
  if (LLVMIsAGlobalVariable(p)) return LLVMGlobalGetValueType(p);
  return NULL;
}

static LLVMValueRef root_of(LLVMValueRef p) { return ir_root_object(p); }

static DataKind of_access(LLVMValueRef inst, LLVMTypeRef t) {
  if (ir_is_ptr(t)) return DATA_PTR;
  if (LLVMGetTypeKind(t) == LLVMDoubleTypeKind) return DATA_F64;
  if (LLVMGetTypeKind(t) == LLVMFloatTypeKind) return DATA_F32;
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind || LLVMGetTypeKind(t) == LLVMArrayTypeKind || LLVMGetTypeKind(t) == LLVMStructTypeKind)
    return uniform_kind(t);
  if (ir_is_int(t)) {
    MemType m = kind_of_access(inst, false);
    return m == MEMTYPE_INT ? DATA_INT : m == MEMTYPE_PTR ? DATA_PTR : DATA_UNKNOWN;
  }
  return DATA_MIXED;
}

/* A stack slot holding a pointer variable (at -O0 every local pointer lives in one). */
static LLVMValueRef pointer_slot(LLVMValueRef slot) {
  slot = ir_strip_pointer_casts(slot);
  return LLVMIsAAllocaInst(slot) ? slot : NULL;
}

/* A pointer variable whose blocks are one object for the kind of data: a stack slot, or a global pointer
 * (a workspace kept across calls and grown with realloc: object_kind then asks the module's other
 * functions too). */
static LLVMValueRef object_slot(LLVMValueRef slot) {
  slot = ir_strip_pointer_casts(slot);
  return pointer_slot(slot) ? slot : LLVMIsAGlobalVariable(slot) && ir_is_ptr(LLVMGlobalGetValueType(slot)) ? slot : NULL;
}

static bool add_new(ValueList *l, LLVMValueRef v) {
  if (!v || ir_list_has(l, v)) return false;
  vec_push(l, v);
  return true;
}

/* A pointer that points to no object: null (a block not allocated when the size is 0), undef. Taken for
 * one, it made every other pointer that may be null the same object: a vector's doubles and, in the same
 * function, a vector of pointers (C++'s std::vector, either empty) were one object holding pointers. */
static bool no_object(LLVMValueRef p) { return LLVMIsAConstantPointerNull(p) || LLVMIsAUndefValue(p); }

/* The pointers that may point into the same object as ptr: through getelementptr and casts, phis and
 * selects, realloc (which moves an object), and a pointer variable's stack slot (every pointer the
 * variable ever holds counts as the same object: for the kind of data, merging them is conservative).
 * A phi or select ptr itself comes from stands for each object it may hold; one that merely merges the
 * object with others further on (two blocks freed at a common exit) does not bring the others in. */
static void walk_same_object(LLVMValueRef fn, LLVMValueRef ptr, ValueList *objects, ValueList *slots_out);

/* same_object's answers within one outermost question of object_kind (the IR does not change meanwhile),
 * per root: each access whose kind a question asks about asks the layout of its object, which walked the
 * whole function to a fixed point every time (a 20-line recursive-descent parser took 20 s to compile, its
 * full form did not finish in 300). */
typedef struct {
  LLVMValueRef fn;
  ValueList objects;
  bool typed, open; /* object_layout's type of the objects (t) known, and whether its struct is open-ended */
  LLVMTypeRef t;
} SameObjects;
static struct {
  ValueMap known; /* root -> SameObjects */
  VEC(SameObjects *) all;
  bool made;
} same_memo;
static int question_depth(void);

static void forget_same_objects(void) {
  for (size_t i = 0; i < same_memo.all.len; i++) {
    vec_free(&same_memo.all.data[i]->objects);
    free(same_memo.all.data[i]);
  }
  same_memo.all.len = 0;
  if (same_memo.made) vmap_free(&same_memo.known);
  vmap_init(&same_memo.known);
  same_memo.made = true;
}

static void same_object(LLVMValueRef fn, LLVMValueRef ptr, ValueList *objects, ValueList *slots_out) {
  if (slots_out || objects->len || !question_depth() || !same_memo.made) {
    walk_same_object(fn, ptr, objects, slots_out);
    return;
  }
  LLVMValueRef root = root_of(ptr);
  SameObjects *known = vmap_get(&same_memo.known, root);
  if (known && known->fn == fn) {
    for (size_t i = 0; i < known->objects.len; i++) vec_push(objects, known->objects.data[i]);
    return;
  }
  walk_same_object(fn, ptr, objects, NULL);
  if (known) return; /* asked in another function: not kept */
  known = xcalloc(1, sizeof *known);
  known->fn = fn;
  for (size_t i = 0; i < objects->len; i++) vec_push(&known->objects, objects->data[i]);
  vmap_put(&same_memo.known, root, known);
  vec_push(&same_memo.all, known);
}

static void walk_same_object(LLVMValueRef fn, LLVMValueRef ptr, ValueList *objects, ValueList *slots_out) {
  ValueList slots = {0};  /* the pointer variables that hold one of the objects */
  ValueList origins = {0}; /* phis and selects ptr comes from: all their operands are the object */
  ValueList fields = {0};  /* other addresses the objects' pointers are loaded from */
  vec_push(objects, root_of(ptr));
  vec_push(&origins, root_of(ptr));
  for (bool changed = true; changed;) {
    changed = false;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        if (LLVMIsAStoreInst(i) && ir_is_ptr(LLVMTypeOf(LLVMGetOperand(i, 0)))) {
          LLVMValueRef slot = object_slot(LLVMGetOperand(i, 1)), stored = root_of(LLVMGetOperand(i, 0));
          if (slot && ir_list_has(objects, stored)) changed |= add_new(&slots, slot);
          if (slot && ir_list_has(&slots, slot)) changed |= add_new(objects, stored);
          continue;
        }
        if (LLVMIsALoadInst(i) && ir_is_ptr(LLVMTypeOf(i))) {
          LLVMValueRef slot = object_slot(LLVMGetOperand(i, 0)), at = ir_strip_pointer_casts(LLVMGetOperand(i, 0));
          if (slot && ir_list_has(objects, i)) changed |= add_new(&slots, slot);
          if (slot && ir_list_has(&slots, slot)) changed |= add_new(objects, i);
          /* loaded again from the same address (a struct's pointer field read before and after a copy that
             may have changed it): the field's blocks, one object for the kind of data */
          if (!slot && ir_list_has(objects, i)) changed |= add_new(&fields, at);
          if (!slot && ir_list_has(&fields, at)) changed |= add_new(objects, i);
          continue;
        }
        if (!ir_is_ptr(LLVMTypeOf(i)) || ir_list_has(objects, i)) continue;
        bool related = false;
        if (LLVMIsAPHINode(i)) {
          for (unsigned k = 0, n = LLVMCountIncoming(i); k < n && !related; k++)
            related = ir_list_has(objects, root_of(LLVMGetIncomingValue(i, k)));
        } else if (LLVMIsASelectInst(i)) {
          related = ir_list_has(objects, root_of(LLVMGetOperand(i, 1))) || ir_list_has(objects, root_of(LLVMGetOperand(i, 2)));
        } else if (ir_is_call(i) && (!strcmp(ir_called_name(i), "realloc") || !strcmp(ir_called_name(i), CKPT_REALLOC))) {
          related = ir_list_has(objects, root_of(LLVMGetArgOperand(i, 0)));
        }
        if (related) changed |= add_new(objects, i);
      }
    for (size_t k = 0; k < origins.len; k++) { /* what the phis and selects ptr comes from may hold */
      LLVMValueRef o = origins.data[k];
      unsigned n = LLVMIsAPHINode(o) ? LLVMCountIncoming(o) : LLVMIsASelectInst(o) ? 2 : 0;
      for (unsigned j = 0; j < n; j++) {
        LLVMValueRef r = root_of(LLVMIsAPHINode(o) ? LLVMGetIncomingValue(o, j) : LLVMGetOperand(o, j + 1));
        if (!ir_is_ptr(LLVMTypeOf(r)) || no_object(r)) continue;
        changed |= add_new(objects, r);
        add_new(&origins, r);
      }
    }
    for (size_t k = 0; k < objects->len; k++) { /* a realloc's block is the one it moved */
      LLVMValueRef o = objects->data[k];
      if (ir_is_call(o) && (!strcmp(ir_called_name(o), "realloc") || !strcmp(ir_called_name(o), CKPT_REALLOC)))
        changed |= add_new(objects, root_of(LLVMGetArgOperand(o, 0)));
    }
  }
  if (slots_out)
    *slots_out = slots;
  else
    vec_free(&slots);
  vec_free(&origins);
  vec_free(&fields);
}

/* An array's element type, through nested arrays. */
static LLVMTypeRef strip_arrays(LLVMTypeRef t) {
  while (LLVMGetTypeKind(t) == LLVMArrayTypeKind) t = LLVMGetElementType(t);
  return t;
}

/* The struct type getelementptrs index the object with, straight from one of its pointers (clang's
 * field addresses at -O0): the object holds that struct, or an array of it, whichever fields the
 * function happens to touch. NULL when there is none, or when two disagree. */
static LLVMTypeRef indexed_struct(LLVMValueRef fn, const ValueList *objects, LLVMTypeRef *array) {
  LLVMTypeRef found = NULL;
  *array = NULL;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsAGetElementPtrInst(i) || !ir_list_has(objects, ir_strip_pointer_casts(LLVMGetOperand(i, 0)))) continue;
      LLVMTypeRef source = LLVMGetGEPSourceElementType(i), t = strip_arrays(source);
      if (LLVMGetTypeKind(t) != LLVMStructTypeKind) continue;
      if (found && found != t) return NULL;
      found = t;
      if (LLVMGetTypeKind(source) == LLVMArrayTypeKind) *array = source;
    }
  return found;
}

/* Whether an object made as t starts with an array of type `array` (a record's first member). */
static bool starts_with(LLVMTypeRef t, LLVMTypeRef array) {
  for (int k = 0; k < 16 && t; k++) {
    if (t == array) return true;
    if (LLVMGetTypeKind(t) != LLVMStructTypeKind || !LLVMCountStructElementTypes(t)) return false;
    t = LLVMStructGetTypeAtIndex(t, 0);
  }
  return false;
}

/* memcpy or memmove (not memset) */
static bool is_transfer(LLVMValueRef call) {
  const char *name = ir_called_name(call);
  return strstr(name, "memcpy") || strstr(name, "memmove");
}

static LLVMValueRef function_of(LLVMValueRef v) {
  if (LLVMIsAInstruction(v)) return LLVMGetBasicBlockParent(LLVMGetInstructionParent(v));
  if (LLVMIsAArgument(v)) return LLVMGetParamParent(v);
  return NULL;
}

enum { CALL_DEPTH = 4 }; /* how many calls away the type of an object is looked for */


/* t without its array layers: what an array of them holds at its start. */
static LLVMTypeRef first_element(LLVMTypeRef t) {
  while (LLVMGetTypeKind(t) == LLVMArrayTypeKind) t = LLVMGetElementType(t);
  return t;
}

/* Agreeing evidence: the first type found, NULL once two differ. Callers that pass one record and callers
 * that pass an array of them (a helper copying one element) agree on the record. */
static void agree(LLVMTypeRef *found, bool *conflict, LLVMTypeRef t) {
  if (!t || *conflict) return;
  if (!*found || *found == t) *found = t;
  else if (first_element(*found) == first_element(t)) *found = first_element(t);
  else *conflict = true;
}

/* The type of the object behind `objects` (the pointers of fn into one object): the struct fn indexes it
 * with; else what the callers (calls, parallel regions, derivative requests) pass where it is a
 * parameter, and what the callees take where fn passes it on whole. What a helper's caller knows about the memory reaches the helper (a memcpy of records in a
 * function that never looks inside them), and the other way round. */
/* agree, leaving out evidence of the record `indexed` itself (an array of it found from the object's start:
 * what is asked is whether a record holds that array) */
static void agree_beside(LLVMTypeRef *found, bool *conflict, LLVMTypeRef t, LLVMTypeRef indexed) {
  if (!indexed || !t || first_element(t) != indexed) agree(found, conflict, t);
}

/* A local pointer variable (a stack slot) that holds one of objects: a parallel region is given its
 * address where the region shares the variable. */
static bool slot_holding(LLVMValueRef slot, const ValueList *objects) {
  if (!LLVMIsAAllocaInst(slot) || !ir_is_ptr(LLVMGetAllocatedType(slot))) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef st = LLVMGetUser(u);
    if (LLVMIsAStoreInst(st) && LLVMGetOperand(st, 1) == slot && ir_list_has(objects, ir_strip_pointer_casts(LLVMGetOperand(st, 0))))
      return true;
  }
  return false;
}

static LLVMTypeRef object_type(LLVMValueRef fn, const ValueList *objects, int depth) {
  LLVMTypeRef array, indexed = indexed_struct(fn, objects, &array), t = NULL;
  /* indexed as an array of records from its start, it may be a record's first member (a tree's
     `Node nodes[8]` before its `int count`): the callers' type, where it starts with that array */
  if ((indexed && !array) || depth >= CALL_DEPTH) return indexed;
  bool conflict = false;
  for (size_t k = 0; k < objects->len; k++) {
    LLVMValueRef o = objects->data[k];
    if (!LLVMIsAArgument(o)) continue;
    unsigned index = 0;
    for (LLVMValueRef a = LLVMGetFirstParam(fn); a != o; a = LLVMGetNextParam(a)) index++;
    LLVMValueRef called = ad_body_original(fn); /* a body copy's callers are its original's */
    for (LLVMUseRef u = LLVMGetFirstUse(called); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef arg = call_site_argument(LLVMGetUser(u), called, index);
      if (arg) agree_beside(&t, &conflict, pointee_type(arg, depth + 1), indexed);
    }
    LLVMValueRef twin = ir_fn_named_by_attr(called, MEMTYPE_PARAMS_OF);
    if (twin && index < LLVMCountParams(twin)) agree_beside(&t, &conflict, pointee_type(LLVMGetParam(twin, index), depth + 1), indexed);
  }
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!ir_is_call(i)) continue;
      for (unsigned a = 0, n = ir_num_call_args(i); a < n; a++) {
        LLVMValueRef arg = ir_strip_pointer_casts(LLVMGetArgOperand(i, a)), param;
        if (!callee_param(fn, i, a, &param)) continue; /* a callee, a parallel region's function */
        if (ir_list_has(objects, arg)) {
          agree_beside(&t, &conflict, pointee_type(param, depth + 1), indexed);
        } else if (slot_holding(arg, objects)) { /* the variable holding it, given by address: what is loaded */
          for (LLVMUseRef u = LLVMGetFirstUse(param); u; u = LLVMGetNextUse(u))
            if (LLVMIsALoadInst(LLVMGetUser(u)) && ir_is_ptr(LLVMTypeOf(LLVMGetUser(u))))
              agree_beside(&t, &conflict, pointee_type(LLVMGetUser(u), depth + 1), indexed);
        }
      }
    }
  if (indexed) return !conflict && t && starts_with(t, array) ? t : indexed;
  return conflict ? NULL : t;
}

/* The answers of pointee_type during one outermost call of it, per depth. The search goes up to
 * CALL_DEPTH calls away through callers and callees, and a value is met again on many paths: a program
 * whose helpers are called from many places asked the same questions hundreds of thousands of times
 * (a fuzzer's program: 11 minutes to compile). */
static struct {
  ValueMap known[CALL_DEPTH + 1];
  int active;
} pointee_memo;

static LLVMTypeRef pointee_type_uncached(LLVMValueRef p, int depth) {
  LLVMTypeRef t = address_type(p);
  if (t && !(LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) == 8)) return t;
  p = ir_strip_pointer_casts(p);
  LLVMValueRef fn = function_of(p);
  if (!fn || LLVMIsAGetElementPtrInst(p)) return NULL;
  if (LLVMIsAAllocaInst(p)) return NULL; /* its own type was bytes */
  ValueList objects = {0};
  same_object(fn, p, &objects, NULL);
  t = object_type(fn, &objects, depth);
  vec_free(&objects);
  return t;
}

/* The type of what p points to the start of: from its address computation, else (p the start of its
 * object) from the object's. NULL when unknown, or bytes. */
static LLVMTypeRef pointee_type(LLVMValueRef p, int depth) {
  if (depth > CALL_DEPTH) depth = CALL_DEPTH; /* object_type looks no further from there */
  ValueMap *known = &pointee_memo.known[depth];
  if (!pointee_memo.active++)
    for (int d = 0; d <= CALL_DEPTH; d++) {
      vmap_free(&pointee_memo.known[d]);
      vmap_init(&pointee_memo.known[d]);
    }
  LLVMTypeRef t;
  if (vmap_has(known, p)) {
    t = vmap_get(known, p);
  } else {
    t = pointee_type_uncached(p, depth);
    vmap_put(known, p, t);
  }
  pointee_memo.active--;
  return t;
}

/* p + i on a typed pointer (a getelementptr of one index over a scalar type, bytes aside): at -O0 a
 * helper that only moves the block (std::vector's relocation: memmove, then `return result + count`)
 * says what it holds no other way. */
static bool element_arithmetic(LLVMValueRef i) {
  if (!LLVMIsAGetElementPtrInst(i) || LLVMGetNumOperands(i) != 2) return false;
  LLVMTypeRef t = LLVMGetGEPSourceElementType(i);
  LLVMTypeKind k = LLVMGetTypeKind(t);
  return k == LLVMDoubleTypeKind || k == LLVMFloatTypeKind || k == LLVMPointerTypeKind ||
         (k == LLVMIntegerTypeKind && !untrusted_integer(i));
}

/* What the object ptr points into holds, from how its function uses it: the type its callers and callees
 * know it by, the function's loads and stores, its element arithmetic. For an integer access that says
 * nothing itself (for_access: the optimiser makes a one-element memmove of std::vector's an i64 load and
 * store, without type tags), integer accesses without tags are not evidence, being what is asked about,
 * and what is copied into the object or out of it is (the type the other end's address was computed in,
 * or that its callers point it at). */
static DataKind accesses_kind(LLVMValueRef fn, const ValueList *objects, bool for_access, DataKind k);

/* The function call i runs that takes argument a, and the parameter it takes it as: a callee of the module,
 * or a parallel region's function (its arguments from OMP_FORK_FIRST_ARG on); NULL for any other. */
static LLVMValueRef callee_param(LLVMValueRef fn, LLVMValueRef i, unsigned a, LLVMValueRef *param) {
  LLVMValueRef callee = ir_called_function(i);
  unsigned shift = 0; /* call argument a is the callee's parameter a - shift */
  if (call_classify(i, NULL) == CALL_OMP && omp_classify(i) == OMP_FORK) {
    callee = omp_fork_outlined(i), shift = OMP_FORK_FIRST_ARG - OMP_OUTLINED_FIRST_PARAM;
    if (a < OMP_FORK_FIRST_ARG) return NULL;
  }
  if (!callee || LLVMIsDeclaration(callee) || callee == fn || a - shift >= LLVMCountParams(callee)) return NULL;
  *param = LLVMGetParam(callee, a - shift);
  return callee;
}

/* The objects a callee reaches through a pointer variable the caller passes it by address (a loop moved
 * into a function of its own, ad/checkpoint.c; a parallel region given the variable): what it loads from
 * that parameter. */
static DataKind through_callees(LLVMValueRef fn, const ValueList *slots, bool for_access, DataKind k) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!ir_is_call(i)) continue;
      for (unsigned a = 0, n = ir_num_call_args(i); a < n; a++) {
        LLVMValueRef param, callee;
        if (!ir_list_has(slots, ir_strip_pointer_casts(LLVMGetArgOperand(i, a))) || !(callee = callee_param(fn, i, a, &param)))
          continue;
        /* the parameter, and at -O0 what is loaded back from the stack slot it is kept in */
        ValueList held = {0};
        vec_push(&held, param);
        for (LLVMUseRef u = LLVMGetFirstUse(param); u; u = LLVMGetNextUse(u)) {
          LLVMValueRef st = LLVMGetUser(u), slot = LLVMIsAStoreInst(st) ? LLVMGetOperand(st, 1) : NULL;
          if (!slot || LLVMGetOperand(st, 0) != param || !LLVMIsAAllocaInst(slot)) continue;
          for (LLVMUseRef w = LLVMGetFirstUse(slot); w; w = LLVMGetNextUse(w))
            if (LLVMIsALoadInst(LLVMGetUser(w))) vec_push(&held, LLVMGetUser(w));
        }
        for (size_t h = 0; h < held.len; h++)
          for (LLVMUseRef u = LLVMGetFirstUse(held.data[h]); u; u = LLVMGetNextUse(u)) {
            LLVMValueRef load = LLVMGetUser(u);
            if (!LLVMIsALoadInst(load) || !ir_is_ptr(LLVMTypeOf(load))) continue;
            ValueList objects = {0};
            same_object(callee, load, &objects, NULL);
            k = accesses_kind(callee, &objects, for_access, k);
            vec_free(&objects);
          }
        vec_free(&held);
      }
    }
  return k;
}

/* The kinds of the accesses of the functions fn hands the objects to whole (a callee, a parallel region's
 * function: the step of a checkpointed loop, whose region fills an array the step then copies), up to
 * CALL_DEPTH calls away. */
static DataKind callees_accesses(LLVMValueRef fn, const ValueList *objects, bool for_access, DataKind k, int depth) {
  if (depth >= CALL_DEPTH) return k;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!ir_is_call(i)) continue;
      for (unsigned a = 0, n = ir_num_call_args(i); a < n; a++) {
        LLVMValueRef param, callee;
        if (!ir_list_has(objects, ir_strip_pointer_casts(LLVMGetArgOperand(i, a))) || !(callee = callee_param(fn, i, a, &param)))
          continue;
        ValueList inner = {0};
        same_object(callee, param, &inner, NULL);
        k = accesses_kind(callee, &inner, for_access, k);
        k = callees_accesses(callee, &inner, for_access, k, depth + 1);
        vec_free(&inner);
      }
    }
  return k;
}

/* What the program's functions put in the blocks a global pointer holds (`static double *work`, a struct
 * global's pointer field): the kinds of the accesses through every load of the same slot (but `except`),
 * module-wide (a function that only sorts the block, or hands it to MPI, says nothing of it itself). */
static DataKind loads_kind(LLVMValueRef slot, LLVMValueRef except, bool for_access, DataKind k) {
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef other = LLVMGetUser(u);
    if (!LLVMIsALoadInst(other) || other == except || !ir_is_ptr(LLVMTypeOf(other))) continue;
    LLVMValueRef fn = function_of(other);
    ValueList objects = {0};
    same_object(fn, other, &objects, NULL);
    k = accesses_kind(fn, &objects, for_access, k);
    vec_free(&objects);
  }
  return k;
}

static DataKind slot_kind(LLVMValueRef load, bool for_access, DataKind k) {
  LLVMValueRef slot = ir_strip_pointer_casts(LLVMGetOperand(load, 0));
  return LLVMIsAGlobalVariable(root_of(slot)) ? loads_kind(slot, load, for_access, k) : k;
}

/* A block stored into a global pointer variable (a workspace grown with realloc, object_slot): k merged
 * with what the loads of the variable, module-wide, touch (loads_kind). A use of the variable other than
 * a load or a store into it (its address passed on) could put anything there: unknown. */
static DataKind stored_slot_kind(LLVMValueRef global, bool for_access, DataKind k) {
  for (LLVMUseRef u = LLVMGetFirstUse(global); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsALoadInst(user) && !(LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == global)) return DATA_UNKNOWN;
  }
  return loads_kind(global, NULL, for_access, k);
}

static DataKind object_kind(LLVMValueRef ptr, bool for_access);

/* A struct's field, as the program names it: by the struct-path type tag of an access (the optimiser
 * keeps it where it has folded the field's address away, `b->data` of a struct's first field) or, at
 * -O0, by clang's getelementptr of the struct type. */
typedef struct {
  void *base; /* the tag's base type node, or the struct type */
  unsigned long long at; /* the tag's offset, or the field's index */
} Field;

static bool field_of(LLVMValueRef access, Field *f) {
  LLVMValueRef tag = LLVMGetMetadata(access, tbaa_kind()), ops[4];
  unsigned n = tag ? LLVMGetMDNodeNumOperands(tag) : 0;
  if (n >= 3 && n <= 4) {
    LLVMGetMDNodeOperands(tag, ops);
    if (ops[0] && ops[0] != ops[1] && ops[2] && LLVMIsAConstantInt(ops[2])) {
      f->base = ops[0], f->at = LLVMConstIntGetZExtValue(ops[2]);
      return true;
    }
  }
  LLVMValueRef a = LLVMGetOperand(access, LLVMIsAStoreInst(access) ? 1 : 0);
  if (!LLVMIsAGetElementPtrInst(a) || LLVMGetNumOperands(a) != 3) return false;
  LLVMTypeRef t = LLVMGetGEPSourceElementType(a);
  LLVMValueRef first = LLVMGetOperand(a, 1), index = LLVMGetOperand(a, 2);
  if (LLVMGetTypeKind(t) != LLVMStructTypeKind || !LLVMIsAConstantInt(first) || LLVMConstIntGetZExtValue(first) ||
      !LLVMIsAConstantInt(index))
    return false;
  f->base = t, f->at = LLVMConstIntGetZExtValue(index);
  return true;
}

/* What the blocks the program keeps in a pointer field hold (a growable array's `double *data`, which
 * push moves into a new block: the new block is stored into the field, the old one loaded from it, and
 * neither is typed where it is copied): the kinds of the accesses through every load of the same field
 * module-wide, and of the blocks stored into it (but the objects asked about). */
static DataKind fields_kind(LLVMValueRef fn, const ValueList *objects, bool for_access, DataKind k) {
  ValueList fields = {0}; /* the loads and stores of the objects' fields, two per field */
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      bool held = (LLVMIsALoadInst(i) && ir_list_has(objects, i)) ||
                  (LLVMIsAStoreInst(i) && ir_list_has(objects, root_of(LLVMGetOperand(i, 0))));
      if (held && ir_is_ptr(LLVMTypeOf(LLVMIsAStoreInst(i) ? LLVMGetOperand(i, 0) : i))) vec_push(&fields, i);
    }
  LLVMModuleRef m = LLVMGetGlobalParent(fn);
  for (size_t q = 0; q < fields.len; q++) {
    Field want, f;
    if (!field_of(fields.data[q], &want)) continue;
    for (LLVMValueRef g = LLVMGetFirstFunction(m); g; g = LLVMGetNextFunction(g))
      for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
          bool load = LLVMIsALoadInst(i) != NULL;
          if ((!load && !LLVMIsAStoreInst(i)) || ir_list_has(&fields, i)) continue;
          LLVMValueRef block = load ? i : LLVMGetOperand(i, 0);
          if (!ir_is_ptr(LLVMTypeOf(block)) || !field_of(i, &f) || f.base != want.base || f.at != want.at) continue;
          if (g == fn && ir_list_has(objects, root_of(block))) continue;
          ValueList other = {0};
          same_object(g, block, &other, NULL);
          k = accesses_kind(g, &other, for_access, k);
          vec_free(&other);
        }
  }
  vec_free(&fields);
  return k;
}

/* What the callers put in a pointer variable they pass fn by address (a checkpointed loop's step, whose
 * pointers are loaded from the block of the loop's variables, ad/checkpoint.c): the kinds of the objects
 * stored into the variable, and of those loaded back from it, where each caller keeps it. The step's
 * callers are the runners, which say nothing; its twin's (MEMTYPE_PARAMS_OF) are the program's. */
static int caller_depth; /* caller_slot_kind: callers of callers, up to CALL_DEPTH */

static DataKind caller_slot_kind(LLVMValueRef load, bool for_access, DataKind k) {
  int depth = caller_depth;
  LLVMValueRef param = ir_strip_pointer_casts(LLVMGetOperand(load, 0));
  if (depth >= CALL_DEPTH) return k;
  if (LLVMIsAAllocaInst(param)) { /* -O0: the pointer was loaded from the parameter, and kept in a slot */
    for (LLVMUseRef w = LLVMGetFirstUse(param); w; w = LLVMGetNextUse(w)) {
      LLVMValueRef st = LLVMGetUser(w), v = LLVMIsAStoreInst(st) ? LLVMGetOperand(st, 0) : NULL;
      if (v && LLVMGetOperand(st, 1) == param && LLVMIsALoadInst(v) && LLVMIsAArgument(ir_strip_pointer_casts(LLVMGetOperand(v, 0))))
        k = caller_slot_kind(v, for_access, k);
    }
    return k;
  }
  if (!LLVMIsAArgument(param)) return k;
  caller_depth++;
  LLVMValueRef fn = LLVMGetParamParent(param);
  unsigned index = 0;
  for (LLVMValueRef a = LLVMGetFirstParam(fn); a != param; a = LLVMGetNextParam(a)) index++;
  LLVMValueRef called[2] = {ad_body_original(fn), NULL};
  called[1] = ir_fn_named_by_attr(called[0], MEMTYPE_PARAMS_OF);
  for (int c = 0; c < 2 && called[c]; c++)
    for (LLVMUseRef u = LLVMGetFirstUse(called[c]); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef slot = call_site_argument(LLVMGetUser(u), called[c], index);
      slot = slot ? ir_strip_pointer_casts(slot) : NULL;
      if (!slot || !LLVMIsAAllocaInst(slot)) continue; /* a variable of the caller's, whose stores it sees */
      for (LLVMUseRef w = LLVMGetFirstUse(slot); w; w = LLVMGetNextUse(w)) {
        LLVMValueRef i = LLVMGetUser(w);
        if (LLVMIsAStoreInst(i) && LLVMGetOperand(i, 1) == slot && ir_is_ptr(LLVMTypeOf(LLVMGetOperand(i, 0))))
          k = merge(k, object_kind(LLVMGetOperand(i, 0), for_access));
        else if (LLVMIsALoadInst(i) && ir_is_ptr(LLVMTypeOf(i)))
          k = merge(k, object_kind(i, for_access));
      }
    }
  caller_depth--;
  return k;
}

/* What the callers pass where the object is a parameter: the kinds of the objects their arguments point
 * into (a constructor's values copied from `x + 2 * k`, whose start says no type). Only a kind every
 * caller shows, the same: where one mixes kinds or shows none (a buffer of constant floats whose stores
 * the optimiser made integers), the part this function is given is not known. */
static DataKind callers_kind(LLVMValueRef fn, const ValueList *objects, bool for_access) {
  if (caller_depth >= CALL_DEPTH) return DATA_UNKNOWN;
  caller_depth++;
  DataKind k = DATA_UNKNOWN;
  bool unknown = false;
  for (size_t o = 0; o < objects->len; o++) {
    LLVMValueRef param = objects->data[o];
    if (!LLVMIsAArgument(param) || LLVMGetParamParent(param) != fn) continue;
    unsigned index = ir_param_index(param);
    LLVMValueRef called[2] = {ad_body_original(fn), NULL};
    called[1] = ir_fn_named_by_attr(called[0], MEMTYPE_PARAMS_OF);
    for (int c = 0; c < 2 && called[c]; c++)
      for (LLVMUseRef u = LLVMGetFirstUse(called[c]); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef arg = call_site_argument(LLVMGetUser(u), called[c], index);
        if (!arg || !ir_is_ptr(LLVMTypeOf(arg)) || no_object(root_of(arg))) continue;
        DataKind a = object_kind(arg, for_access);
        unknown |= a == DATA_UNKNOWN;
        k = merge(k, a);
      }
  }
  caller_depth--;
  return k == DATA_MIXED || unknown ? DATA_UNKNOWN : k;
}

/* object_kind's answers within one outermost question (the IR does not change meanwhile), per object and
 * depth of callers: its accesses' kinds ask about the blocks of global pointers, whose every load module-
 * wide asks about its own accesses, and the same questions came back on many paths (a fuzzer's program:
 * 4 minutes on one memcpy's kind). */
static struct {
  ValueMap known[2][CALL_DEPTH + 1];
  int active;
} kind_memo;

static DataKind object_kind_uncached(LLVMValueRef fn, LLVMValueRef ptr, bool for_access);

static int question_depth(void) { return kind_memo.active; }

/* An outermost question, or a hold (memtype.h): the IR does not change until it ends, so the memos start
 * empty and serve every object_kind and same_object asked on the way (each access's kind asked inside an
 * analysis was a question of its own, the memos emptied for each: a recursive-descent parser took minutes
 * to compile). */
static void question_begin(void) {
  if (kind_memo.active++) return;
  for (int a = 0; a < 2; a++)
    for (int d = 0; d <= CALL_DEPTH; d++) {
      vmap_free(&kind_memo.known[a][d]);
      vmap_init(&kind_memo.known[a][d]);
    }
  forget_same_objects();
}

static void question_end(void) { kind_memo.active--; }

static DataKind object_kind(LLVMValueRef ptr, bool for_access) {
  LLVMValueRef fn = function_of(root_of(ptr));
  if (!fn) fn = function_of(ptr);
  if (!fn) return DATA_UNKNOWN;
  question_begin();
  /* the answer depends on the object (its root, in the function of ptr where the root is not in one) */
  LLVMValueRef key = function_of(root_of(ptr)) ? root_of(ptr) : ptr;
  ValueMap *known = &kind_memo.known[for_access][caller_depth < CALL_DEPTH ? caller_depth : CALL_DEPTH];
  DataKind k;
  if (vmap_has(known, key)) {
    k = (DataKind)(uintptr_t)vmap_get(known, key);
  } else {
    k = object_kind_uncached(fn, ptr, for_access);
    vmap_put(known, key, (void *)(uintptr_t)k);
  }
  question_end();
  return k;
}

static DataKind object_kind_uncached(LLVMValueRef fn, LLVMValueRef ptr, bool for_access) {
  ValueList objects = {0}, slots = {0};
  same_object(fn, ptr, &objects, &slots);
  LLVMTypeRef known = object_type(fn, &objects, 0);
  DataKind k = known ? uniform_kind(known) : DATA_UNKNOWN;
  k = accesses_kind(fn, &objects, for_access, k);
  for (size_t s = 0; s < slots.len; s++)
    if (LLVMIsAGlobalVariable(slots.data[s])) k = stored_slot_kind(slots.data[s], for_access, k);
  if (k == DATA_UNKNOWN && slots.len) k = through_callees(fn, &slots, for_access, k);
  if (k == DATA_UNKNOWN) k = callees_accesses(fn, &objects, for_access, k, 0);
  if (k == DATA_UNKNOWN && LLVMIsALoadInst(root_of(ptr))) k = slot_kind(root_of(ptr), for_access, k);
  if (k == DATA_UNKNOWN && LLVMIsALoadInst(root_of(ptr))) k = caller_slot_kind(root_of(ptr), for_access, k);
  if (k == DATA_UNKNOWN) k = fields_kind(fn, &objects, for_access, k);
  if (k == DATA_UNKNOWN) k = callers_kind(fn, &objects, for_access);
  vec_free(&objects);
  vec_free(&slots);
  return k;
}

/* Bytes [lo, hi) of the object that `root` is the start of: a part of an object asked about (NULL: all of it).
 * foreign: set where an access to the object went through another root, whose offsets say nothing about
 * the window's (a tree's header in the map object, beside its nodes: its pointer at +32 is not a node's
 * value at +32); such an access is left out. */
typedef struct {
  LLVMValueRef root;
  long long lo, hi;
  bool foreign;
  bool elements;               /* an access counted moves by a variable index: elements of an array */
  unsigned long long accessed; /* the bytes of the accesses counted at fixed offsets */
} Window;

/* Whether the access at p is through another root than the window's (w->foreign then set). */
static bool foreign_to(Window *w, LLVMValueRef p);

/* Whether the `size` bytes at address p surely lie outside the window: at a constant offset from its root. */
static bool outside(const Window *w, LLVMValueRef p, LLVMTypeRef t);

static unsigned long long smallest_stride(const Placement *pl) {
  unsigned long long least = ~0ull;
  for (unsigned i = 0; i < pl->nstrides; i++)
    if (pl->strides[i] < least) least = pl->strides[i];
  return least;
}

/* The instructions of fn that use v or an address computed from it (by getelementptr and casts, as
 * root_of goes back), each once: where fn's accesses to an object are, found from the object rather than
 * by reading the whole function for each object asked about. */
static void users_of_object(LLVMValueRef fn, LLVMValueRef v, ValueMap *seen, ValueList *out, int depth) {
  if (depth >= 64) return;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    bool inst = LLVMIsAInstruction(user) != NULL;
    if ((inst && function_of(user) != fn) || vmap_has(seen, user)) continue;
    LLVMOpcode op = inst ? LLVMGetInstructionOpcode(user) : LLVMIsAConstantExpr(user) ? LLVMGetConstOpcode(user) : 0;
    bool derived = op == LLVMBitCast || op == LLVMAddrSpaceCast || (op == LLVMGetElementPtr && LLVMGetOperand(user, 0) == v);
    if (!inst && !derived) continue;
    vmap_put(seen, user, user);
    if (inst) vec_push(out, user);
    if (derived) users_of_object(fn, user, seen, out, depth + 1);
  }
}

/* k merged with the kinds of fn's accesses to the objects (those that may touch the window, if any). */
static DataKind window_accesses_kind(LLVMValueRef fn, const ValueList *objects, bool for_access, DataKind k, Window *w) {
  ValueList users = {0};
  ValueMap seen;
  vmap_init(&seen);
  for (size_t o = 0; o < objects->len; o++) users_of_object(fn, objects->data[o], &seen, &users, 0);
  vmap_free(&seen);
  for (size_t u = 0; u < users.len; u++) {
    LLVMValueRef i = users.data[u];
    bool load = LLVMIsALoadInst(i), store = LLVMIsAStoreInst(i);
    if (load || store) {
      LLVMTypeRef t = LLVMTypeOf(store ? LLVMGetOperand(i, 0) : i);
      LLVMValueRef at = LLVMGetOperand(i, store ? 1 : 0);
      if (ir_list_has(objects, root_of(at)) && (!for_access || !ir_is_int(t) || from_tbaa(i) != MEMTYPE_UNKNOWN) &&
          !(w && (foreign_to(w, at) || outside(w, at, t)))) {
        k = merge(k, of_access(i, t));
        Placement pl;
        bool placed = w && placement(at, &pl) && LLVMTypeIsSized(t);
        unsigned long long size = placed ? LLVMStoreSizeOfType(LLVMGetModuleDataLayout(LLVMGetGlobalParent(fn)), t) : 0;
        if (placed && !pl.nstrides)
          w->accessed += size;
        else if (w && !(placed && size < smallest_stride(&pl)))
          w->elements = true; /* not a field of each element (a record's key, read by a sort): that says
                                 nothing of the rest of the record */
      }
    } else if (element_arithmetic(i) && ir_list_has(objects, ir_strip_pointer_casts(LLVMGetOperand(i, 0))) &&
               !(w && (foreign_to(w, i) || outside(w, i, LLVMGetGEPSourceElementType(i))))) {
      k = merge(k, uniform_kind(LLVMGetGEPSourceElementType(i)));
      if (w && !LLVMIsAConstantInt(LLVMGetOperand(i, 1))) w->elements = true; /* (a byte offset: placed where used) */
    } else if (for_access && ir_is_call(i) && is_transfer(i)) {
      for (unsigned e = 0; e < 2; e++) {
        if (!ir_list_has(objects, root_of(LLVMGetArgOperand(i, e)))) continue;
        LLVMValueRef other = LLVMGetArgOperand(i, 1 - e);
        LLVMTypeRef t = address_type(other);
        if (!t || uniform_kind(t) == DATA_UNKNOWN) t = pointee_type(other, 1);
        if (t) k = merge(k, uniform_kind(t));
      }
    }
  }
  vec_free(&users);
  return k;
}

static DataKind accesses_kind(LLVMValueRef fn, const ValueList *objects, bool for_access, DataKind k) {
  return window_accesses_kind(fn, objects, for_access, k, NULL);
}

DataKind memtype_of_data(LLVMValueRef ptr) {
  LLVMTypeRef t = address_type(ptr);
  DataKind k = t ? uniform_kind(t) : DATA_UNKNOWN;
  return k != DATA_UNKNOWN ? k : object_kind(ptr, false);
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
                 : m == MEMTYPE_INT || narrow_field(ops[i - 1]) ? DATA_INT : m == MEMTYPE_PTR ? DATA_PTR : DATA_UNKNOWN;
    if (f == DATA_UNKNOWN) return DATA_UNKNOWN; /* a char array: could be anything */
    /* a float not at a multiple of its width from the copy's start (the rest of `{char tag; double v}`
       from byte 1: the double at 7) is no element of an array of floats: the layout places it */
    if ((f == DATA_F64 || f == DATA_F32) && ops[i - 2] && LLVMIsAConstantInt(ops[i - 2]) &&
        LLVMConstIntGetZExtValue(ops[i - 2]) % (f == DATA_F64 ? 8 : 4))
      f = DATA_MIXED;
    k = merge(k, f);
  }
  return k;
}

/* Copies that reach no typed access (COPY_CHAIN_MAX of them in a row, at most) say nothing. */
enum { COPY_CHAIN_MAX = 4 };

/* What the other ends of the copies into and out of the object ptr points into hold, where nothing else
 * tells: a buffer of bytes (`char buf[]`) that doubles are packed into and unpacked from holds doubles.
 * A chain of untyped ends is followed; `seen` keeps each copy to one visit. */
static DataKind copies_kind(LLVMValueRef ptr, ValueList *seen, int depth) {
  LLVMValueRef fn = function_of(root_of(ptr));
  if (!fn) fn = function_of(ptr);
  if (!fn) return DATA_UNKNOWN;
  ValueList objects = {0};
  same_object(fn, ptr, &objects, NULL);
  DataKind k = DATA_UNKNOWN;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!ir_is_call(i) || !is_transfer(i) || ir_list_has(seen, i)) continue;
      for (unsigned e = 0; e < 2; e++) {
        if (!ir_list_has(&objects, root_of(LLVMGetArgOperand(i, e)))) continue;
        vec_push(seen, i);
        LLVMValueRef other = LLVMGetArgOperand(i, 1 - e);
        DataKind o = memtype_of_data(other);
        if (o == DATA_UNKNOWN && depth + 1 < COPY_CHAIN_MAX) o = copies_kind(other, seen, depth + 1);
        k = merge(k, o);
        break;
      }
    }
  vec_free(&objects);
  return k;
}

static DataKind part_kind(LLVMValueRef p, LLVMValueRef len, bool *unseen);

/* A copy the optimiser made of a loop of typed loads and stores (a row copied between two grids) carries
 * their type tag: it moves values of that type. (Clang tags the copies it writes itself, a struct's
 * assignment, with !tbaa.struct, and a call to memcpy not at all.) */
static DataKind from_copy_tag(LLVMValueRef call) {
  char width;
  switch (from_tbaa_tag(LLVMGetMetadata(call, tbaa_kind()), &width)) {
  case MEMTYPE_FP: return width == 8 ? DATA_F64 : width == 4 ? DATA_F32 : DATA_UNKNOWN;
  case MEMTYPE_PTR: return DATA_PTR;
  case MEMTYPE_INT: return DATA_INT;
  default: return DATA_UNKNOWN;
  }
}

/* Whether an integer type tag on a copy holds: the copy of a loop of `long` words over memory of
 * floats or pointers (undefined by C's aliasing rule, built as written) carries the words' tag, and the
 * objects at its ends say what it moves. */
static bool tag_holds(LLVMValueRef call) {
  for (unsigned e = 0; e < 2 && e < ir_num_call_args(call); e++) {
    if (!ir_is_ptr(LLVMTypeOf(LLVMGetArgOperand(call, e)))) continue; /* memset's value */
    DataKind k = memtype_of_data(LLVMGetArgOperand(call, e));
    if (k == DATA_F64 || k == DATA_F32 || k == DATA_PTR || k == DATA_MIXED) return false;
  }
  return true;
}

static bool no_runs_over(LLVMValueRef p, LLVMValueRef len);
static bool harmless_call(LLVMValueRef call);

/* How much of an untyped object (a heap block, a parameter) a function and the callees it hands the
 * object to see: the end of the last byte touched at a fixed offset, or the whole of it (an access with
 * a variable index, a type tag on a copy into it, an access the offsets cannot place). */
typedef struct {
  unsigned long long seen_to;
  bool whole;
  DataKind kind; /* of the accesses, a typed copy's included (memtype_of_data leaves those out) */
} View;

static void view_of(LLVMValueRef fn, const ValueList *objects, LLVMValueRef root, LLVMValueRef skip, View *v, int depth) {
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(LLVMGetGlobalParent(fn));
  /* every access is asked, also once the view is whole: its kind is all of theirs (a sort's helper reads
     the records' int keys through iterators it cannot place, and moves them by tagged copies) */
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      bool load = LLVMIsALoadInst(i), store = LLVMIsAStoreInst(i);
      if (load || store) {
        LLVMValueRef at = LLVMGetOperand(i, store ? 1 : 0);
        if (!ir_list_has(objects, root_of(at))) continue;
        Placement pl;
        LLVMTypeRef t = LLVMTypeOf(store ? LLVMGetOperand(i, 0) : i);
        v->kind = merge(v->kind, of_access(i, t));
        if (!placement(at, &pl) || pl.root != root || pl.nstrides || pl.offset < 0 || !LLVMTypeIsSized(t)) v->whole = true;
        else if ((unsigned long long)pl.offset + LLVMStoreSizeOfType(td, t) > v->seen_to)
          v->seen_to = (unsigned long long)pl.offset + LLVMStoreSizeOfType(td, t);
      } else if (element_arithmetic(i) && !LLVMIsAConstantInt(LLVMGetOperand(i, 1)) &&
                 ir_list_has(objects, ir_strip_pointer_casts(LLVMGetOperand(i, 0)))) {
        v->whole = true; /* p + i (a byte offset is placed where it is used) */
      } else if (ir_is_call(i) && i != skip && !harmless_call(i)) {
        for (unsigned a = 0, n = ir_num_call_args(i); a < n; a++) {
          LLVMValueRef arg = LLVMGetArgOperand(i, a), param, callee;
          if (!ir_list_has(objects, root_of(arg))) continue;
          if (is_transfer(i)) { /* a typed copy in or out (the optimiser's, of a loop's elements) */
            DataKind tag = from_copy_tag(i) != DATA_UNKNOWN ? from_copy_tag(i) : from_tbaa_struct(i);
            v->kind = merge(v->kind, tag);
            if (tag != DATA_UNKNOWN) v->whole = true;
            continue;
          }
          if (ir_strip_pointer_casts(arg) != root || depth >= CALL_DEPTH || !(callee = callee_param(fn, i, a, &param))) {
            v->whole = true; /* what a call does with it is not placed */
            continue;
          }
          ValueList inner = {0};
          same_object(callee, param, &inner, NULL);
          view_of(callee, &inner, param, NULL, v, depth + 1);
          vec_free(&inner);
        }
      }
    }
}

/* What the `bytes` bytes (0: not a constant) that `copy` moves from or into p hold, by the object p points
 * into. Where its function touches an untyped object only at fixed offsets that stop short of the copy's
 * end, the kind of those accesses says nothing of the rest: a helper that copies a struct with a flexible
 * array member whole (`memcpy(q, p, sizeof *p + n * sizeof(double))`) and reads only its `int n` took
 * the copy for integers, dropping the doubles' adjoints. The callers are asked then (p a parameter), or
 * it is not known. */
static DataKind copied_kind(LLVMValueRef p, unsigned long long bytes, LLVMValueRef copy, int depth) {
  LLVMValueRef root = root_of(p), fn = function_of(root);
  LLVMTypeRef t = address_type(p);
  bool untyped = !t || (LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) == 8);
  Placement pl;
  if (!fn || !untyped || LLVMIsAAllocaInst(root) || !placement(p, &pl) || pl.root != root || pl.nstrides || pl.offset < 0)
    return memtype_of_data(p);
  ValueList objects = {0};
  same_object(fn, root, &objects, NULL);
  View v = {0, false, DATA_UNKNOWN};
  view_of(fn, &objects, root, copy, &v, 0);
  vec_free(&objects);
  if (v.whole || v.seen_to == 0 || (bytes && (unsigned long long)pl.offset + bytes <= v.seen_to)) return merge(memtype_of_data(p), v.kind);
  if (!LLVMIsAArgument(root) || pl.offset || depth >= CALL_DEPTH) return DATA_UNKNOWN;
  DataKind k = DATA_UNKNOWN;
  LLVMValueRef called = ad_body_original(fn);
  unsigned index = ir_param_index(root);
  for (LLVMUseRef u = LLVMGetFirstUse(called); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef arg = call_site_argument(LLVMGetUser(u), called, index);
    if (!arg || !ir_is_ptr(LLVMTypeOf(arg)) || no_object(root_of(arg))) continue;
    DataKind a = copied_kind(arg, bytes, NULL, depth + 1);
    if (a == DATA_UNKNOWN) return DATA_UNKNOWN;
    k = merge(k, a);
  }
  return k;
}

/* The one floating type other than float and double every scalar of t is, or NULL. */
static LLVMTypeRef other_float_inside(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMX86_FP80TypeKind:
  case LLVMHalfTypeKind:
  case LLVMBFloatTypeKind: return t;
  case LLVMArrayTypeKind:
  case LLVMVectorTypeKind: return other_float_inside(LLVMGetElementType(t));
  case LLVMStructTypeKind: {
    unsigned n = LLVMCountStructElementTypes(t);
    LLVMTypeRef f = n && !is_union(t) ? other_float_inside(LLVMStructGetTypeAtIndex(t, 0)) : NULL;
    for (unsigned i = 1; i < n && f; i++)
      if (other_float_inside(LLVMStructGetTypeAtIndex(t, i)) != f) f = NULL;
    return f;
  }
  default: return NULL;
  }
}

LLVMTypeRef memtype_other_float_of_copy(LLVMValueRef call) {
  LLVMTypeRef f = NULL;
  for (unsigned k = 0; k < 2; k++) {
    LLVMTypeRef at = address_type(LLVMGetArgOperand(call, k)), e = at ? other_float_inside(at) : NULL;
    if (!e || (f && e != f)) return NULL;
    f = e;
  }
  return f;
}

DataKind memtype_of_copy(LLVMValueRef call) {
  DataKind k = from_tbaa_struct(call);
  if (k == DATA_UNKNOWN) k = from_copy_tag(call);
  if (k == DATA_INT && !tag_holds(call)) k = DATA_UNKNOWN;
  if (k != DATA_UNKNOWN) return k;
  LLVMValueRef dst = LLVMGetArgOperand(call, 0), len = LLVMGetArgOperand(call, 2);
  unsigned long long bytes = LLVMIsAConstantInt(len) ? LLVMConstIntGetZExtValue(len) : 0;
  k = copied_kind(dst, bytes, call, 0);
  LLVMTypeRef dt = address_type(dst);
  /* a helper's parameter: the type of what every caller gives it (a generic stack's pop into a pointer
     variable is a copy of pointers, whatever the element size) */
  if (!dt && LLVMIsAArgument(root_of(dst)) && root_of(dst) == ir_strip_pointer_casts(dst)) {
    ValueList objects = {0};
    vec_push(&objects, root_of(dst));
    dt = object_type(LLVMGetParamParent(root_of(dst)), &objects, 0);
    vec_free(&objects);
  }
  bool unseen = false, typed = dt && uniform_kind(dt) != DATA_UNKNOWN;
  /* the copied bytes' own kind, where the object's is mixed, or pointers the type does not say */
  DataKind part = k == DATA_MIXED || (k == DATA_PTR && !typed) ? part_kind(dst, LLVMGetArgOperand(call, 2), &unseen)
                                                               : DATA_UNKNOWN;
  if (k == DATA_MIXED) k = part;
  bool two_ends = ir_num_call_args(call) > 1 && ir_is_ptr(LLVMTypeOf(LLVMGetArgOperand(call, 1)));
  /* Bytes that only other pointers reach (a list node's values, read by the loop that walks the list),
     or that a struct's type gives no float or pointer (a `char payload[]` a generic table copies values
     into), hold what comes: floats from memory of floats (the layout of the struct had moved none). */
  if (k == DATA_MIXED && two_ends && (unseen || no_runs_over(dst, LLVMGetArgOperand(call, 2)))) {
    DataKind from = memtype_of_data(LLVMGetArgOperand(call, 1));
    if (from == DATA_F64 || from == DATA_F32) k = from;
  }
  /* Copied from an object declared of floats of one width (a local `double buf[16]`): the bytes copied are
     those floats, whatever the destination holds elsewhere (an array library's store chosen by the
     array's type at run time: a memcpy of doubles, else a loop of floats into the same bytes). */
  if (k == DATA_MIXED && two_ends) {
    LLVMTypeRef st = address_type(LLVMGetArgOperand(call, 1));
    DataKind from = st ? uniform_kind(st) : DATA_UNKNOWN;
    if (from == DATA_F64 || from == DATA_F32) k = from;
  }
  /* Pointers the object holds elsewhere say nothing of a part of it this function touches only by the
   * copy, or reaches only through other pointers: a task's block, whose header (shareds, routine) is read
   * as pointers, and whose private copies clang fills with a memcpy (a firstprivate array or struct of
   * doubles, declared outside the parallel region); a list node's values copied in beside its links.
   * Their adjoints were dropped. The copy moves what its source holds, and is not told where that is
   * not known. */
  bool untouched = k == DATA_PTR && !typed && part != DATA_PTR;
  if ((k == DATA_UNKNOWN || k == DATA_INT || untouched) && two_ends) {
    DataKind from = copied_kind(LLVMGetArgOperand(call, 1), bytes, call, 0);
    /* floats' bits copied into an integer variable are still floats */
    if (k == DATA_UNKNOWN || from == DATA_F64 || from == DATA_F32 || (untouched && from == DATA_MIXED)) k = from;
    /* the block's pointers elsewhere do not say the copied bytes are pointers */
    else if (untouched && from == DATA_UNKNOWN) k = DATA_UNKNOWN;
  }
  if (k == DATA_UNKNOWN && two_ends && is_transfer(call)) {
    ValueList seen = {0};
    vec_push(&seen, call);
    for (unsigned e = 0; e < 2; e++) k = merge(k, copies_kind(LLVMGetArgOperand(call, e), &seen, 0));
    vec_free(&seen);
  }
  return k;
}

/* ---- layouts of structs ---- */

static unsigned kind_size(DataKind k) { return k == DATA_F32 ? 4 : 8; }

static bool add_run(MemLayout *l, unsigned long long offset, unsigned long long count, DataKind k) {
  if (l->n > 0) { /* extends the last run when it continues it */
    LayoutRun *last = &l->run[l->n - 1];
    if (last->kind == k && last->offset + last->count * kind_size(k) == offset) {
      last->count += (unsigned)count;
      return true;
    }
  }
  if (l->n == LAYOUT_MAX_RUNS || offset > 1u << 30 || count > 1u << 30) return false;
  l->run[l->n].offset = (unsigned)offset;
  l->run[l->n].count = (unsigned)count;
  l->run[l->n++].kind = k;
  return true;
}

static DataKind scalar_kind(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMDoubleTypeKind: return DATA_F64;
  case LLVMFloatTypeKind: return DATA_F32;
  case LLVMPointerTypeKind: return DATA_PTR;
  case LLVMIntegerTypeKind: return DATA_INT;
  default: return DATA_UNKNOWN; /* long double, half, ...: not in layouts */
  }
}

/* The runs of type t placed at byte base, up to byte end. */
static bool type_layout(LLVMTargetDataRef td, LLVMTypeRef t, unsigned long long base, unsigned long long end, MemLayout *l) {
  if (base >= end) return true;
  LLVMTypeKind k = LLVMGetTypeKind(t);
  /* clang types a union as its first member only (`union { double d; double *p; }` is { double }): its
     bytes may hold any member's kind, a pointer where the type says a double */
  if (is_union(t)) return false;
  if (k == LLVMStructTypeKind) {
    for (unsigned i = 0, n = LLVMCountStructElementTypes(t); i < n; i++)
      if (!type_layout(td, LLVMStructGetTypeAtIndex(t, i), base + LLVMOffsetOfElement(td, t, i), end, l)) return false;
    return true;
  }
  if (k == LLVMArrayTypeKind || k == LLVMVectorTypeKind) {
    LLVMTypeRef e = LLVMGetElementType(t);
    unsigned long long n = k == LLVMArrayTypeKind ? LLVMGetArrayLength2(t) : LLVMGetVectorSize(t);
    DataKind ek = scalar_kind(e);
    if (ek == DATA_INT) return true;
    if (ek != DATA_UNKNOWN) return add_run(l, base, n, ek);
    unsigned long long size = LLVMABISizeOfType(td, e);
    for (unsigned long long i = 0; i < n && base + i * size < end; i++)
      if (!type_layout(td, e, base + i * size, end, l)) return false;
    return true;
  }
  DataKind sk = scalar_kind(t);
  if (sk == DATA_INT) return true;
  return sk != DATA_UNKNOWN && add_run(l, base, 1, sk);
}

/* The constant an exact division of v by a constant says v is a multiple of (the optimiser's count of
 * elements between two pointers, `sdiv exact (q - p), 24`: a remainder would be undefined), or 1. */
static unsigned long long exact_multiple(LLVMValueRef v) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef d = LLVMGetUser(u);
    if (!LLVMIsABinaryOperator(d) || LLVMGetOperand(d, 0) != v || !LLVMIsAConstantInt(LLVMGetOperand(d, 1))) continue;
    LLVMOpcode op = LLVMGetInstructionOpcode(d);
    unsigned long long c = LLVMConstIntGetZExtValue(LLVMGetOperand(d, 1));
    bool division = op == LLVMSDiv || op == LLVMUDiv, shift = op == LLVMAShr || op == LLVMLShr;
    if ((division && c > 1 && c < 1u << 20) || (shift && c > 0 && c < 20))
      if (LLVMGetExact(d)) return division ? c : 1ull << c;
  }
  return 1;
}

/* The bytes a variable index moves by: its stride, times the constant it is a multiple of (an index
 * scaled by a multiplication or a shift: getelementptr i8 over `i * 24`; a byte distance the program
 * divides exactly by 24). */
static unsigned long long index_step(LLVMValueRef idx, unsigned long long stride) {
  if (LLVMIsABinaryOperator(idx) && LLVMIsAConstantInt(LLVMGetOperand(idx, 1))) {
    unsigned long long c = LLVMConstIntGetZExtValue(LLVMGetOperand(idx, 1));
    if (LLVMGetInstructionOpcode(idx) == LLVMMul) return stride * c;
    if (LLVMGetInstructionOpcode(idx) == LLVMShl && c < 32) return stride << c;
  }
  return stride * exact_multiple(idx);
}

/* Adds what getelementptr p adds to its base to pl. */
static bool place_gep(LLVMTargetDataRef td, LLVMValueRef p, Placement *pl) {
  LLVMTypeRef t = LLVMGetGEPSourceElementType(p);
  for (unsigned i = 1, n = (unsigned)LLVMGetNumOperands(p); i < n; i++) {
    LLVMValueRef idx = LLVMGetOperand(p, i);
    unsigned long long stride, length = 0; /* length: of the array indexed, where one is */
    if (i == 1) {
      stride = LLVMABISizeOfType(td, t);
    } else if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
      unsigned field = (unsigned)LLVMConstIntGetZExtValue(idx); /* struct indices are constants */
      pl->offset += (long long)LLVMOffsetOfElement(td, t, field);
      t = LLVMStructGetTypeAtIndex(t, field);
      continue;
    } else {
      if (LLVMGetTypeKind(t) == LLVMArrayTypeKind) length = LLVMGetArrayLength2(t);
      t = LLVMGetElementType(t);
      stride = LLVMABISizeOfType(td, t);
    }
    /* an index times a step plus a constant smaller than the step (`j * 224 + 32`: the optimiser's byte
       address of a row's second record) is at the constant's offset into the step's element; a constant
       of a step or more (`c[k + 1]` after a header, `c[n - 1 - k]`) is left in the index, whose offsets
       the step's multiples give */
    bool folded = false;
    if (LLVMIsABinaryOperator(idx) && LLVMIsAConstantInt(LLVMGetOperand(idx, 1)) &&
        (LLVMGetInstructionOpcode(idx) == LLVMAdd || (LLVMGetInstructionOpcode(idx) == LLVMOr && LLVMGetIsDisjoint(idx)))) {
      long long c = LLVMConstIntGetSExtValue(LLVMGetOperand(idx, 1)) * (long long)stride;
      unsigned long long step = index_step(LLVMGetOperand(idx, 0), stride);
      if (c > 0 && (unsigned long long)c < step) pl->offset += c, idx = LLVMGetOperand(idx, 0), folded = true;
    }
    if (LLVMIsAConstantInt(idx)) {
      pl->offset += LLVMConstIntGetSExtValue(idx) * (long long)stride;
    } else if (pl->nstrides < 16) {
      pl->strides[pl->nstrides++] = index_step(idx, stride);
      if (length > 1 && !folded) pl->bounded++, pl->reach += (length - 1) * stride;
    } else {
      return false;
    }
  }
  return true;
}

static bool placement(LLVMValueRef p, Placement *pl) {
  memset(pl, 0, sizeof *pl);
  for (int depth = 0; depth < 64; depth++) {
    p = ir_strip_pointer_casts(p);
    /* a field of a global is a constant expression (a -O0 program's optimised copies hold no type tags) */
    bool constant = LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr &&
                    LLVMIsAGlobalValue(ir_root_object(p));
    if (!LLVMIsAGetElementPtrInst(p) && !constant) break;
    if (!place_gep(LLVMGetModuleDataLayout(module_of(p)), p, pl)) return false;
    p = LLVMGetOperand(p, 0);
  }
  pl->root = p;
  return true;
}

static bool foreign_to(Window *w, LLVMValueRef p) {
  Placement pl;
  if (!placement(p, &pl) || pl.root == w->root) return false;
  w->foreign = true;
  return true;
}

static bool outside(const Window *w, LLVMValueRef p, LLVMTypeRef t) {
  Placement pl;
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(module_of(w->root));
  long long size = LLVMTypeIsSized(t) ? (long long)LLVMStoreSizeOfType(td, t) : 0;
  return size && placement(p, &pl) && pl.root == w->root && !pl.nstrides && (pl.offset + size <= w->lo || pl.offset >= w->hi);
}

/* What an object that mixes kinds holds over the `len` bytes from p (not a constant: to its end),
 * p at a constant offset into it: a header of integers before an array of doubles (a flexible array
 * member filled by memcpy) holds doubles there. DATA_MIXED where that cannot be told (*unseen set where
 * only other pointers into the object reach those bytes), DATA_UNKNOWN where the function does not
 * access the object there. */
static DataKind part_kind(LLVMValueRef p, LLVMValueRef len, bool *unseen) {
  Placement pl;
  LLVMValueRef fn = function_of(root_of(p));
  if (!fn || !placement(p, &pl) || pl.nstrides) return DATA_MIXED;
  unsigned long long n = LLVMIsAConstantInt(len) ? LLVMConstIntGetZExtValue(len) : 1ull << 62;
  Window w = {pl.root, pl.offset, pl.offset + (long long)(n < 1ull << 62 ? n : 1ull << 62), false, false, 0};
  ValueList objects = {0};
  same_object(fn, p, &objects, NULL);
  DataKind k = window_accesses_kind(fn, &objects, false, DATA_UNKNOWN, &w);
  vec_free(&objects);
  *unseen = k == DATA_UNKNOWN && w.foreign;
  /* integers or pointers at fixed offsets that cover less than the part say nothing of the rest (a helper
     that copies an array of {int k; double d} and reads the first k: not a copy of integers); floats in
     part of it (a flexible array's elements read one by one) still say floats */
  if ((k == DATA_INT || k == DATA_PTR) && !w.elements && w.accessed < n) return DATA_MIXED;
  return *unseen ? DATA_MIXED : k;
}

/* The pointer's byte in a pattern of `period` bytes that starts with the object: false when a variable
 * index may move it by part of a period. */
static bool phase_in(const Placement *pl, unsigned long long period, unsigned *phase) {
  for (unsigned i = 0; i < pl->nstrides; i++)
    if (pl->strides[i] % period) return false;
  long long r = pl->offset % (long long)period; /* C's remainder keeps the sign: -24 % 24 is 0, -8 % 24 is -8 */
  *phase = (unsigned)(r < 0 ? r + (long long)period : r);
  return true;
}

/* The length of the array a struct ends in; -1 where it ends in something else. */
static long long trailing_array(LLVMTypeRef t) {
  unsigned n = LLVMCountStructElementTypes(t);
  LLVMTypeRef last = n ? LLVMStructGetTypeAtIndex(t, n - 1) : NULL;
  return last && LLVMGetTypeKind(last) == LLVMArrayTypeKind ? (long long)LLVMGetArrayLength2(last) : -1;
}

/* A struct ending in a flexible array member (`double data[];`, an array of length 0 in IR): a header and
 * then elements up to the end of the block, never an array of such structs. */
static bool flexible(LLVMTypeRef t) { return trailing_array(t) == 0; }

/* Whether an address of an array field is indexed further with a variable index (at -O0: the field's
 * getelementptr, then one into the array, or one over its elements where the array decays to a pointer). */
static bool indexed_further(LLVMValueRef field) {
  for (LLVMUseRef u = LLVMGetFirstUse(field); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef g = LLVMGetUser(u);
    if (!LLVMIsAGetElementPtrInst(g) || LLVMGetOperand(g, 0) != field) continue;
    unsigned at = LLVMGetTypeKind(LLVMGetGEPSourceElementType(g)) == LLVMArrayTypeKind ? 2 : 1;
    if ((unsigned)LLVMGetNumOperands(g) > at && !LLVMIsAConstantInt(LLVMGetOperand(g, at))) return true;
  }
  return false;
}

/* The struct hack, C's flexible array member before C99: a heap block of a struct ending in an array of one
 * element (`double data[1];`), allocated longer, its array running to the block's end. Taken for an array
 * of such structs, a block grown by realloc lost half its adjoints. Told by how fn uses the objects: it
 * indexes the array with a variable index and never steps over whole structs. */
static bool struct_hack(LLVMValueRef fn, const ValueList *objects, LLVMTypeRef t) {
  if (!fn || trailing_array(t) != 1) return false;
  unsigned last = LLVMCountStructElementTypes(t) - 1;
  bool indexed = false;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsAGetElementPtrInst(i) || LLVMGetGEPSourceElementType(i) != t || !ir_list_has(objects, root_of(LLVMGetOperand(i, 0))))
        continue;
      LLVMValueRef first = LLVMGetOperand(i, 1);
      if (!LLVMIsAConstantInt(first) || LLVMConstIntGetZExtValue(first) != 0) return false;
      if (LLVMGetNumOperands(i) < 3 || LLVMConstIntGetZExtValue(LLVMGetOperand(i, 2)) != last) continue;
      if (LLVMGetNumOperands(i) > 3) indexed |= !LLVMIsAConstantInt(LLVMGetOperand(i, 3));
      else indexed |= indexed_further(i);
    }
  return indexed;
}

/* The layout over the first `extent` bytes of a struct whose last array runs to the end of the block: one
 * pattern, the header then the elements. */
static bool open_layout(LLVMTargetDataRef td, LLVMTypeRef t, const Placement *pl, unsigned long long extent, MemLayout *l) {
  if (pl->nstrides || pl->offset < 0 || extent > LAYOUT_ONCE || extent <= (unsigned long long)pl->offset) return false;
  unsigned last = LLVMCountStructElementTypes(t) - 1;
  unsigned long long from = LLVMOffsetOfElement(td, t, last);
  LLVMTypeRef e = LLVMGetElementType(LLVMStructGetTypeAtIndex(t, last));
  unsigned long long size = LLVMABISizeOfType(td, e), count = extent > from && size ? (extent - from + size - 1) / size : 0;
  l->period = (unsigned)extent, l->phase = (unsigned)pl->offset;
  if (!type_layout(td, t, 0, from, l)) return false;
  DataKind k = scalar_kind(e);
  if (k == DATA_INT || count == 0) return true;
  if (k != DATA_UNKNOWN) return add_run(l, from, count, k);
  if (count > LAYOUT_MAX_RUNS * 64) return false; /* structs, each element's runs apart */
  for (unsigned long long i = 0; i < count; i++)
    if (!type_layout(td, e, from + i * size, extent, l)) return false;
  return true;
}

/* The layout of structs of type t repeating from the start of the object, seen from the pointer, over the
 * `bytes` bytes from it (0: not known). A struct whose last array runs to the end of the block (open: a
 * flexible array member, the struct hack) does not repeat: its layout covers those bytes, or, where they
 * are not known, is LAYOUT_ONCE long. */
static bool struct_layout(LLVMModuleRef m, LLVMTypeRef t, bool open, const Placement *pl, unsigned long long bytes, MemLayout *l) {
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
  unsigned long long period = LLVMABISizeOfType(td, t);
  memset(l, 0, sizeof *l);
  if (open || flexible(t)) return open_layout(td, t, pl, bytes ? (unsigned long long)pl->offset + bytes : LAYOUT_ONCE, l);
  if (!period || period >= LAYOUT_ONCE || !phase_in(pl, period, &l->phase)) return false;
  l->period = (unsigned)period;
  return type_layout(td, t, 0, period, l);
}

static LLVMModuleRef module_of(LLVMValueRef v) {
  while (LLVMIsAConstantExpr(v)) v = LLVMGetOperand(v, 0); /* a field of a global (placement) */
  if (LLVMIsAGlobalValue(v)) return LLVMGetGlobalParent(v);
  if (LLVMIsAArgument(v)) return LLVMGetGlobalParent(LLVMGetParamParent(v));
  return LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(v)));
}

/* Whether an access of fn to the block root (objects: the pointers to it), which starts with a struct of
 * layout l, contradicts l: a double where l has none, an integer (by its type tag) over l's floats or
 * pointers. A buffer reused for another layout is such a block (two doubles, then records {double; int;
 * double}): no one struct says what it holds. Accesses not at a fixed place in the pattern are not asked. */
static bool layout_contradicted(LLVMValueRef fn, const ValueList *objects, LLVMValueRef root, const MemLayout *l) {
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(LLVMGetGlobalParent(fn));
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      bool load = LLVMIsALoadInst(i), store = LLVMIsAStoreInst(i);
      if (!load && !store) continue;
      LLVMValueRef at = LLVMGetOperand(i, store ? 1 : 0);
      Placement pl;
      if (!ir_list_has(objects, root_of(at)) || !placement(at, &pl) || pl.root != root || pl.offset < 0) continue;
      bool fixed = l->period != LAYOUT_ONCE;
      for (unsigned k = 0; k < pl.nstrides; k++) fixed &= pl.strides[k] % l->period == 0;
      LLVMTypeRef t = LLVMTypeOf(store ? LLVMGetOperand(i, 0) : i);
      DataKind k = ir_is_ptr(t) ? DATA_PTR : LLVMGetTypeKind(t) == LLVMDoubleTypeKind ? DATA_F64
                 : LLVMGetTypeKind(t) == LLVMFloatTypeKind ? DATA_F32 : ir_is_int(t) && from_tbaa(i) == MEMTYPE_INT ? DATA_INT
                 : DATA_UNKNOWN;
      if (!fixed || k == DATA_UNKNOWN) continue;
      unsigned bits;
      unsigned long long size = LLVMStoreSizeOfType(td, t), pos = (unsigned long long)pl.offset % l->period;
      MemType want = kind_in_layout(l, pos, size, &bits);
      bool agrees = k == DATA_PTR ? want == MEMTYPE_PTR : k == DATA_INT ? want == MEMTYPE_INT
                  : want == MEMTYPE_FP && bits == (k == DATA_F64 ? 64u : 32u);
      if (!agrees) return true;
    }
  return false;
}

/* The layout of the object p points into, from the type of the stack slot or global it lies in: the
 * byte offset of p in it must be known up to whole structs. */
static bool object_layout(LLVMValueRef p, unsigned long long bytes, MemLayout *l) {
  Placement pl;
  if (!placement(p, &pl)) return false;
  LLVMValueRef root = pl.root, fn = function_of(root);
  LLVMTypeRef t = LLVMIsAAllocaInst(root) ? LLVMGetAllocatedType(root) : LLVMIsAGlobalVariable(root) ? LLVMGlobalGetValueType(root) : NULL;
  bool open = false, indexed = !t && fn;
  ValueList objects = {0};
  if (indexed) { /* a heap block, an argument: as the function or its callers and callees index it */
    same_object(fn, root, &objects, NULL);
    SameObjects *known = question_depth() && same_memo.made ? vmap_get(&same_memo.known, root) : NULL;
    if (known && known->fn == fn && known->typed) {
      t = known->t, open = known->open;
    } else {
      t = object_type(fn, &objects, 0);
      if (t) t = strip_arrays(t);
      open = t && LLVMGetTypeKind(t) == LLVMStructTypeKind && struct_hack(fn, &objects, t);
      if (known && known->fn == fn) known->typed = true, known->t = t, known->open = open;
    }
  }
  bool known = t && LLVMGetTypeKind(strip_arrays(t)) == LLVMStructTypeKind && /* arrays of scalars: memtype_of_data */
               struct_layout(module_of(root), strip_arrays(t), open, &pl, bytes, l);
  /* the struct must be all the block holds (the block starts with one) */
  if (known && indexed && layout_contradicted(fn, &objects, root, l)) known = false;
  vec_free(&objects);
  return known;
}

/* Whether the `len` bytes from p (not a constant: to the end of a struct with a flexible array member)
 * hold no float and no pointer by the type of the struct p points into. */
static bool no_runs_over(LLVMValueRef p, LLVMValueRef len) {
  unsigned long long bytes = LLVMIsAConstantInt(len) ? LLVMConstIntGetZExtValue(len) : 0;
  MemLayout l;
  if (!object_layout(p, bytes, &l) || (!bytes && l.period != LAYOUT_ONCE)) return false;
  unsigned long long lo = l.phase, hi = bytes ? lo + bytes : LAYOUT_ONCE;
  if (hi > l.period) return false; /* into the next struct of an array */
  for (unsigned i = 0; i < l.n; i++) {
    unsigned long long start = l.run[i].offset, end = start + (unsigned long long)l.run[i].count * kind_size(l.run[i].kind);
    if (start < hi && end > lo) return false;
  }
  return true;
}

/* The layout a copy's struct tags (!tbaa.struct) give: one struct of the copy's constant length. */
static bool tagged_layout(LLVMValueRef call, MemLayout *l) {
  memset(l, 0, sizeof *l);
  LLVMValueRef md = LLVMGetMetadata(call, LLVMGetMDKindID("tbaa.struct", 11));
  LLVMValueRef len = LLVMGetArgOperand(call, 2);
  unsigned n = md ? LLVMGetMDNodeNumOperands(md) : 0;
  if (n && n % 3 == 0 && n <= 3 * 256 && LLVMIsAConstantInt(len) && LLVMConstIntGetZExtValue(len) < 1u << 30) {
    LLVMValueRef ops[3 * 256];
    LLVMGetMDNodeOperands(md, ops);
    bool ok = true;
    for (unsigned i = 0; i < n && ok; i += 3) {
      char width;
      MemType m = from_tbaa_tag(ops[i + 2], &width);
      if (!ops[i] || !LLVMIsAConstantInt(ops[i])) {
        ok = false;
        break;
      }
      unsigned long long offset = LLVMConstIntGetZExtValue(ops[i]);
      if (m == MEMTYPE_INT || (m == MEMTYPE_UNKNOWN && narrow_field(ops[i + 1]))) continue;
      if (m == MEMTYPE_PTR) ok = add_run(l, offset, 1, DATA_PTR);
      else if (m == MEMTYPE_FP && (width == 8 || width == 4)) ok = add_run(l, offset, 1, width == 8 ? DATA_F64 : DATA_F32);
      else ok = false; /* a char field (anything), a long double */
    }
    l->period = (unsigned)LLVMConstIntGetZExtValue(len);
    if (ok) return true;
    memset(l, 0, sizeof *l);
  }
  return false;
}

static bool own_layout(LLVMValueRef call, MemLayout *l) {
  if (tagged_layout(call, l)) return true;
  LLVMValueRef len = LLVMGetArgOperand(call, 2);
  unsigned long long bytes = LLVMIsAConstantInt(len) ? LLVMConstIntGetZExtValue(len) : 0;
  if (object_layout(LLVMGetArgOperand(call, 0), bytes, l)) return true;
  return is_transfer(call) && (object_layout(LLVMGetArgOperand(call, 1), bytes, l) || accessed_layout(LLVMGetArgOperand(call, 1), call, l));
}

/* ---- layouts from accesses ---- */

/* What the program's accesses say of an untyped block's bytes (the optimiser addresses a struct with a
 * flexible array member by byte offsets, leaving no struct type to read): fields at fixed offsets, then
 * elements of one kind indexed from `array_at` on. */
enum { ACCESSED_FIELDS = 64 };
typedef struct {
  struct {
    unsigned long long at, size;
    DataKind kind;
  } field[ACCESSED_FIELDS];
  unsigned nfields;
  /* integer loads and stores without a type tag at fixed offsets (a bitfield's storage, read and written
     a byte at a time): integers where no typed access overlaps them */
  struct {
    unsigned long long at, size;
  } untyped[ACCESSED_FIELDS];
  unsigned nuntyped;
  /* indexed accesses of an array the program declares, one element after another over [at, at + size):
     a field where other accesses lie past it (a ring buffer's `double buf[64]` before its `int idx`), else
     the elements that go on to the block's end (a trailing array may be longer than declared) */
  struct {
    unsigned long long at, size, element;
    DataKind kind;
  } bounded[ACCESSED_FIELDS];
  unsigned nbounded;
  DataKind array; /* DATA_UNKNOWN: no indexed access */
  unsigned long long array_at, element;
  bool fail;
} Accessed;

static void note_field(Accessed *a, unsigned long long at, unsigned long long size, DataKind k) {
  if (a->nfields == ACCESSED_FIELDS || k == DATA_UNKNOWN || k == DATA_MIXED) a->fail = true;
  else a->field[a->nfields].at = at, a->field[a->nfields].size = size, a->field[a->nfields++].kind = k;
}

static void note_elements(Accessed *a, unsigned long long at, unsigned long long element, DataKind k) {
  if (k == DATA_UNKNOWN || k == DATA_MIXED || !element || (a->array != DATA_UNKNOWN && (a->array != k || a->element != element)))
    a->fail = true;
  else if (a->array == DATA_UNKNOWN || at < a->array_at)
    a->array = k, a->element = element, a->array_at = at;
}

/* The scalar kind and size of an access of type t (a vector: its elements'); DATA_MIXED where none. */
static DataKind access_scalar(LLVMTargetDataRef td, LLVMValueRef inst, LLVMTypeRef t, unsigned long long *size) {
  LLVMTypeRef e = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
  *size = LLVMTypeIsSized(e) ? LLVMStoreSizeOfType(td, e) : 0;
  DataKind k = of_access(inst, e);
  return *size && (k == DATA_F64 || k == DATA_F32 || k == DATA_PTR || k == DATA_INT) ? k : DATA_MIXED;
}

/* Adds fn's accesses of the objects (`root`, their start, and the pointers into it) to a, and those of the
 * callees it hands the block to whole; a fails where the block may hold what no access shows: a call that
 * is neither followed nor harmless, the block's address stored, an access the offsets cannot place.
 * `skip`: the copy asked about. */
static void gather_accesses(LLVMValueRef fn, const ValueList *objects, LLVMValueRef root, LLVMValueRef skip, Accessed *a, int depth) {
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(LLVMGetGlobalParent(fn));
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && !a->fail; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && !a->fail; i = LLVMGetNextInstruction(i)) {
      bool load = LLVMIsALoadInst(i), store = LLVMIsAStoreInst(i);
      if (store && ir_list_has(objects, root_of(LLVMGetOperand(i, 0)))) {
        a->fail = true; /* the block's address kept somewhere */
      } else if (load || store) {
        LLVMValueRef at = LLVMGetOperand(i, store ? 1 : 0);
        if (!ir_list_has(objects, root_of(at))) continue;
        Placement pl;
        unsigned long long size;
        LLVMTypeRef t = LLVMTypeOf(store ? LLVMGetOperand(i, 0) : i);
        DataKind k = access_scalar(td, i, t, &size);
        if (!placement(at, &pl) || pl.root != root || pl.offset < 0) a->fail = true;
        else if (!pl.nstrides && k == DATA_MIXED && ir_is_int(t) && !LLVMGetMetadata(i, tbaa_kind())) {
          if (a->nuntyped == ACCESSED_FIELDS) a->fail = true;
          else a->untyped[a->nuntyped].at = (unsigned long long)pl.offset, a->untyped[a->nuntyped++].size = LLVMStoreSizeOfType(td, t);
        } else if (!pl.nstrides) {
          note_field(a, (unsigned long long)pl.offset, LLVMStoreSizeOfType(td, t), k);
        } else if (pl.nstrides == 1 && pl.bounded == 1 && pl.strides[0] == size && a->nbounded < ACCESSED_FIELDS) {
          a->bounded[a->nbounded].at = (unsigned long long)pl.offset, a->bounded[a->nbounded].element = size;
          a->bounded[a->nbounded].size = pl.reach + LLVMStoreSizeOfType(td, t), a->bounded[a->nbounded++].kind = k;
        } else {
          for (unsigned s = 0; s < pl.nstrides; s++)
            if (!size || pl.strides[s] % size) a->fail = true;
          note_elements(a, (unsigned long long)pl.offset, size, k);
        }
      } else if (ir_is_call(i) && i != skip && !harmless_call(i)) {
        for (unsigned n = ir_num_call_args(i), k = 0; k < n && !a->fail; k++) {
          LLVMValueRef arg = LLVMGetArgOperand(i, k), param, callee;
          if (!ir_list_has(objects, root_of(arg))) continue;
          Placement pl;
          DataKind tag = is_transfer(i) ? from_copy_tag(i) : DATA_UNKNOWN;
          if (tag != DATA_UNKNOWN && k < 2 && placement(arg, &pl) && pl.root == root && !pl.nstrides && pl.offset >= 0) {
            LLVMValueRef len = LLVMGetArgOperand(i, 2);
            unsigned long long element = kind_size(tag);
            if (tag == DATA_INT || !LLVMIsAConstantInt(len)) note_elements(a, (unsigned long long)pl.offset, tag == DATA_INT ? 1 : element, tag);
            else note_field(a, (unsigned long long)pl.offset, LLVMConstIntGetZExtValue(len), tag);
            continue;
          }
          if (is_transfer(i) && k == 1) continue; /* read, the block unchanged (another copy of it) */
          if (is_transfer(i) || ir_strip_pointer_casts(arg) != root || depth >= CALL_DEPTH || !(callee = callee_param(fn, i, k, &param))) {
            a->fail = true;
            continue;
          }
          ValueList inner = {0};
          same_object(callee, param, &inner, NULL);
          gather_accesses(callee, &inner, param, skip, a, depth + 1);
          vec_free(&inner);
        }
      } else if (LLVMGetInstructionOpcode(i) == LLVMRet && LLVMGetNumOperands(i) == 1 && ir_list_has(objects, root_of(LLVMGetOperand(i, 0)))) {
        a->fail = true; /* the caller's accesses are not followed */
      }
    }
}

/* Gathers the accesses of the block p is the start of, from its function, and where p is a parameter,
 * from every caller's block; the blocks must be fresh allocations (whose bytes no access shows hold
 * nothing yet). */
static void block_accesses(LLVMValueRef p, LLVMValueRef skip, Accessed *a, int depth) {
  LLVMValueRef root = root_of(p), fn = function_of(root);
  if (!fn || ir_strip_pointer_casts(p) != root || depth > CALL_DEPTH) {
    a->fail = true;
    return;
  }
  bool fresh = ir_is_call(root) && call_classify(root, NULL) == CALL_ALLOC;
  if (!fresh && !LLVMIsAArgument(root)) {
    a->fail = true;
    return;
  }
  ValueList objects = {0};
  same_object(fn, root, &objects, NULL);
  for (size_t o = 0; o < objects.len; o++) /* phis, selects, reallocs: another block than the root */
    if (objects.data[o] != root) a->fail = true;
  if (!a->fail) gather_accesses(fn, &objects, root, skip, a, 0);
  vec_free(&objects);
  if (fresh || a->fail) return;
  LLVMValueRef called = ad_body_original(fn);
  unsigned index = ir_param_index(root), callers = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(called); u && !a->fail; u = LLVMGetNextUse(u)) {
    LLVMValueRef arg = call_site_argument(LLVMGetUser(u), called, index);
    if (!arg) {
      a->fail = true; /* the function's address taken, or a derivative request: callers not seen */
      continue;
    }
    /* the call itself is gathered again from the caller's side (its callee's accesses): harmless */
    block_accesses(arg, skip, a, depth + 1);
    callers++;
  }
  if (!callers) a->fail = true;
}

static int by_offset(const void *x, const void *y) {
  const LayoutRun *a = x, *b = y;
  return a->offset < b->offset ? -1 : a->offset > b->offset;
}

/* The layout of the block p is the start of, from the accesses of the program's blocks it may be (a
 * helper copying a struct with a flexible array member, at -O2; a message of bytes): fields, then
 * elements to the end of the block. False where the accesses disagree (a field where elements are
 * indexed, two kinds over one byte) or leave the block's contents unseen. skip: the copy asked about. */
static bool accessed_layout(LLVMValueRef p, LLVMValueRef skip, MemLayout *l) {
  memset(l, 0, sizeof *l);
  static Accessed a; /* large; the analysis is single-threaded */
  memset(&a, 0, sizeof a);
  a.array = DATA_UNKNOWN;
  block_accesses(p, skip, &a, 0);
  for (unsigned b = 0; b < a.nbounded && !a.fail; b++) {
    unsigned long long at = a.bounded[b].at, past = at + a.bounded[b].size;
    bool beyond = a.array != DATA_UNKNOWN && a.array_at >= past;
    for (unsigned f = 0; f < a.nfields; f++) beyond |= a.field[f].at >= past;
    for (unsigned u = 0; u < a.nuntyped; u++) beyond |= a.untyped[u].at >= past;
    for (unsigned o = 0; o < a.nbounded; o++) beyond |= a.bounded[o].at >= past;
    if (beyond) note_field(&a, at, a.bounded[b].size, a.bounded[b].kind);
    else note_elements(&a, at, a.bounded[b].element, a.bounded[b].kind);
  }
  if (a.fail) return false;
  unsigned long long end = a.array != DATA_UNKNOWN ? a.array_at : LAYOUT_ONCE;
  for (unsigned f = 0; f < a.nfields; f++) {
    unsigned long long at = a.field[f].at, size = a.field[f].size;
    DataKind k = a.field[f].kind;
    if (at + size > end) { /* among the elements: elements themselves */
      if (at < end || k != a.array || (at - end) % a.element || size % a.element) return false;
      continue;
    }
    for (unsigned o = 0; o < a.nfields; o++) /* another kind over its bytes */
      if (a.field[o].kind != k && a.field[o].at < at + size && at < a.field[o].at + a.field[o].size) return false;
    unsigned long long width = k == DATA_INT ? 1 : kind_size(k);
    if (k != DATA_INT && (size % width || at % width)) return false;
  }
  for (unsigned u = 0; u < a.nuntyped; u++) { /* over no float or pointer, nor the elements */
    unsigned long long at = a.untyped[u].at, size = a.untyped[u].size;
    if (at + size > end) return false;
    for (unsigned f = 0; f < a.nfields; f++)
      if (a.field[f].kind != DATA_INT && a.field[f].at < at + size && at < a.field[f].at + a.field[f].size) return false;
  }
  for (unsigned f = 0; f < a.nfields; f++) { /* the fields' runs, each once, in order */
    unsigned long long at = a.field[f].at, size = a.field[f].size;
    DataKind k = a.field[f].kind;
    if (k == DATA_INT || at + size > end) continue;
    bool noted = false;
    for (unsigned r = 0; r < l->n && !noted; r++) noted = l->run[r].offset == at && l->run[r].kind == k;
    if (noted) continue;
    if (l->n == LAYOUT_MAX_RUNS) return false;
    l->run[l->n].offset = (unsigned)at, l->run[l->n].count = (unsigned)(size / kind_size(k)), l->run[l->n++].kind = k;
  }
  qsort(l->run, l->n, sizeof *l->run, by_offset);
  for (unsigned r = 1; r < l->n; r++) /* the same bytes as several lengths of one kind */
    if (l->run[r].offset < l->run[r - 1].offset + l->run[r - 1].count * kind_size(l->run[r - 1].kind)) return false;
  l->period = LAYOUT_ONCE;
  if (a.array != DATA_UNKNOWN && a.array != DATA_INT && !add_run(l, end, (LAYOUT_ONCE - end) / a.element, a.array)) return false;
  return true;
}

/* The start of the object p points to the start of, through casts and getelementptrs of index 0. */
static LLVMValueRef start_of(LLVMValueRef p) {
  for (int depth = 0; depth < 16; depth++) {
    p = ir_strip_pointer_casts(p);
    if (!LLVMIsAGetElementPtrInst(p)) break;
    for (unsigned i = 1, n = (unsigned)LLVMGetNumOperands(p); i < n; i++) {
      LLVMValueRef idx = LLVMGetOperand(p, i);
      if (!LLVMIsAConstantInt(idx) || LLVMConstIntGetZExtValue(idx) != 0) return p;
    }
    p = LLVMGetOperand(p, 0);
  }
  return p;
}

/* A byte buffer has the layout of the structs copied into it, or out of it: memcpy(buf, &s, n) and
 * memcpy(&t, buf, n) in the same function, both at the start of the buffer. */
/* The layout of address p where it is, up to constant offsets, an end of a copy that fn tags as one
 * struct (the optimiser's copy of an element into its slot, `*pos = item`): an array of such structs is
 * taken to go on from there, at the phase the offsets give. */
static bool tagged_end(LLVMValueRef fn, LLVMValueRef p, MemLayout *l) {
  long long offset = 0;
  for (int depth = 0; depth < 16; depth++) {
    p = ir_strip_pointer_casts(p);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        if (!ir_is_call(i) || !is_transfer(i)) continue;
        if (ir_strip_pointer_casts(LLVMGetArgOperand(i, 0)) != p && ir_strip_pointer_casts(LLVMGetArgOperand(i, 1)) != p) continue;
        if (!tagged_layout(i, l)) continue;
        long long r = offset % (long long)l->period;
        l->phase = (unsigned)(r < 0 ? r + (long long)l->period : r);
        return true;
      }
    Placement step = {0};
    if (!LLVMIsAGetElementPtrInst(p) || !place_gep(LLVMGetModuleDataLayout(module_of(p)), p, &step) || step.nstrides) return false;
    offset += step.offset;
    p = LLVMGetOperand(p, 0);
  }
  return false;
}

static bool same_layout(const MemLayout *a, const MemLayout *b) {
  if (a->period != b->period || a->phase != b->phase || a->n != b->n) return false;
  for (unsigned i = 0; i < a->n; i++)
    if (a->run[i].offset != b->run[i].offset || a->run[i].count != b->run[i].count || a->run[i].kind != b->run[i].kind)
      return false;
  return true;
}

bool memtype_layout_of_copy(LLVMValueRef call, MemLayout *l) {
  if (own_layout(call, l)) return true;
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
  LLVMValueRef ends[2] = {LLVMGetArgOperand(call, 0), is_transfer(call) ? LLVMGetArgOperand(call, 1) : NULL};
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (i == call || !ir_is_call(i) || !is_transfer(i) || LLVMGetArgOperand(i, 2) != LLVMGetArgOperand(call, 2)) continue;
      for (int e = 0; e < 2; e++)
        for (unsigned k = 0; k < 2; k++)
          if (ends[e] && start_of(ends[e]) == start_of(LLVMGetArgOperand(i, k)) && LLVMIsAAllocaInst(start_of(ends[e])) &&
              own_layout(i, l))
            return true;
    }
  /* both ends (one for a memset) where the function copies one struct each */
  MemLayout other;
  if (tagged_end(fn, ends[0], l) && (!ends[1] || (tagged_end(fn, ends[1], &other) && same_layout(l, &other)))) return true;
  memset(l, 0, sizeof *l);
  return false;
}

/* ---- what a block of bytes holds, for messages of bytes ---- */

/* Calls that take a pointer into an object without putting other data there: lifetime markers, free,
 * memset, and MPI calls (which move data of the kind the object holds: the question being answered). */
static bool harmless_call(LLVMValueRef call) {
  const char *name = ir_called_name(call);
  return !strncmp(name, "llvm.lifetime.", 14) || !strncmp(name, "llvm.memset.", 12) || !strcmp(name, "free") ||
         !strcmp(name, CKPT_FREE_PRIMAL) || !strcmp(name, CKPT_DELETE_PRIMAL) || !strcmp(name, CKPT_DELETE_ARRAY_PRIMAL) ||
         !strncmp(name, "MPI_", 4) || ir_is_debug_intrinsic(call);
}

/* Whether the function lets anything but its own loads and stores see the object: a call other than the
 * harmless ones (a memcpy included, unless `copies_known`: what the copies move is what it holds), or the
 * pointer stored anywhere but a pointer variable's stack slot.
 * With `typed`, a call may take the address of an element or field computed in that struct type (at -O0,
 * a function of the file that reads a field): what it finds there is laid out as the struct. */
static bool escapes(LLVMValueRef fn, const ValueList *objects, LLVMTypeRef typed, bool copies_known) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (LLVMIsAStoreInst(i) && ir_list_has(objects, root_of(LLVMGetOperand(i, 0))) && !pointer_slot(LLVMGetOperand(i, 1)))
        return true;
      if (!ir_is_call(i) || harmless_call(i) || (copies_known && is_transfer(i))) continue;
      for (unsigned k = 0, n = ir_num_call_args(i); k < n; k++) {
        LLVMValueRef a = ir_strip_pointer_casts(LLVMGetArgOperand(i, k));
        if (typed && LLVMIsAGetElementPtrInst(a) && strip_arrays(LLVMGetGEPSourceElementType(a)) == typed) continue;
        if (ir_list_has(objects, root_of(a))) return true;
      }
    }
  return false;
}

/* One kind of data throughout, seen from the pointer. */
static bool uniform_layout(LLVMValueRef p, DataKind k, MemLayout *l) {
  memset(l, 0, sizeof *l);
  if (k == DATA_INT) return l->period = 1, true; /* nothing but integers: no runs */
  Placement pl;
  if (!placement(p, &pl) || !phase_in(&pl, kind_size(k), &l->phase)) return false;
  l->period = kind_size(k);
  return add_run(l, 0, 1, k);
}

/* Whether a memcpy or memmove writes into the object (an int array holding a double's bytes). */
static bool copied_into(LLVMValueRef fn, const ValueList *objects) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if (ir_is_call(i) && is_transfer(i) && ir_list_has(objects, root_of(LLVMGetArgOperand(i, 0)))) return true;
  return false;
}

static bool loaded_or_stored(LLVMValueRef fn, const ValueList *objects) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if ((LLVMIsALoadInst(i) && ir_list_has(objects, root_of(LLVMGetOperand(i, 0)))) ||
          (LLVMIsAStoreInst(i) && ir_list_has(objects, root_of(LLVMGetOperand(i, 1)))))
        return true;
  return false;
}

/* Whether every copy into or out of the object starts there at a multiple of `size` bytes and moves whole
 * values of that size: then the object holds them in step with its start. */
static bool copies_in_step(LLVMValueRef fn, const ValueList *objects, unsigned size) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!ir_is_call(i) || !is_transfer(i)) continue;
      LLVMValueRef len = LLVMGetArgOperand(i, 2);
      for (unsigned e = 0; e < 2; e++) {
        Placement pl;
        unsigned phase;
        if (!ir_list_has(objects, root_of(LLVMGetArgOperand(i, e)))) continue;
        if (!placement(LLVMGetArgOperand(i, e), &pl) || !phase_in(&pl, size, &phase) || phase ||
            (LLVMIsAConstantInt(len) && LLVMConstIntGetZExtValue(len) % size))
          return false;
      }
    }
  return true;
}

bool memtype_layout_of_data(LLVMValueRef p, MemLayout *l) {
  if (object_layout(p, 0, l)) return true;
  LLVMTypeRef declared = address_type(p);
  DataKind k = declared ? uniform_kind(declared) : DATA_UNKNOWN;
  if (k == DATA_F64 || k == DATA_F32) return uniform_layout(p, k, l);
  LLVMValueRef root = root_of(p);
  LLVMValueRef fn = LLVMIsAArgument(root) ? LLVMGetParamParent(root)
                    : LLVMIsAInstruction(root) ? LLVMGetBasicBlockParent(LLVMGetInstructionParent(root)) : NULL;
  if (!fn) return (k == DATA_INT || k == DATA_PTR) && uniform_layout(p, k, l); /* a global: by its type */
  ValueList objects = {0};
  same_object(fn, p, &objects, NULL);
  bool known = false;
  if (k == DATA_INT || k == DATA_PTR) { /* no floats by its type, unless a copy put some there */
    known = !copied_into(fn, &objects) && uniform_layout(p, k, l);
  } else { /* how the function uses the object, if nothing else sees it */
    k = memtype_of_data(p);
    LLVMTypeRef s = k == DATA_MIXED || k == DATA_UNKNOWN ? object_type(fn, &objects, 0) : NULL;
    if (s && LLVMGetTypeKind(strip_arrays(s)) != LLVMStructTypeKind) s = NULL;
    if (s) s = strip_arrays(s);
    bool by_copies = false; /* nothing but copies reads or writes it: what they move */
    if (k == DATA_UNKNOWN && !s && !loaded_or_stored(fn, &objects)) {
      ValueList seen = {0};
      k = copies_kind(p, &seen, 0);
      vec_free(&seen);
      by_copies = k != DATA_UNKNOWN && k != DATA_MIXED && copies_in_step(fn, &objects, kind_size(k));
      if (!by_copies) k = DATA_UNKNOWN;
    }
    Placement pl;
    if (escapes(fn, &objects, s, by_copies)) known = false;
    else if (s)
      known = placement(p, &pl) && struct_layout(module_of(fn), s, struct_hack(fn, &objects, s), &pl, 0, l) &&
              !layout_contradicted(fn, &objects, pl.root, l);
    else known = k != DATA_MIXED && k != DATA_UNKNOWN && uniform_layout(p, k, l);
    if (!known && !s && k == DATA_MIXED) known = accessed_layout(p, NULL, l);
  }
  vec_free(&objects);
  return known;
}

unsigned memtype_drop_overruled_tags(LLVMModuleRef m, const ValueMap *reached) {
  unsigned tbaa = tbaa_kind(), dropped = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = vmap_has(reached, fn) ? LLVMGetFirstBasicBlock(fn) : NULL; bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        if (!LLVMGetMetadata(i, tbaa)) continue;
        bool overruled = false;
        if (LLVMIsALoadInst(i) || LLVMIsAStoreInst(i))
          overruled = ir_is_int(LLVMTypeOf(LLVMIsAStoreInst(i) ? LLVMGetOperand(i, 0) : i)) && from_tbaa(i) == MEMTYPE_INT &&
                      memtype_of_access(i) != MEMTYPE_INT;
        else if (ir_is_call(i) && is_transfer(i))
          overruled = from_copy_tag(i) == DATA_INT && !tag_holds(i);
        if (overruled) LLVMSetMetadata(i, tbaa, NULL), dropped++;
      }
  return dropped;
}

/* ---- the questions asked from outside ---- */

void memtype_hold(void) { question_begin(); }
void memtype_release(void) { question_end(); }

CopyPointers memtype_copy_pointers(LLVMValueRef copy) {
  DataKind d = memtype_of_copy(copy);
  if (d == DATA_PTR) return COPY_POINTERS;
  if (d != DATA_MIXED) return COPY_NO_POINTERS;
  MemLayout l;
  if (!memtype_layout_of_copy(copy, &l)) return COPY_LAYOUT_UNKNOWN;
  for (unsigned r = 0; r < l.n; r++)
    if (l.run[r].kind == DATA_PTR) return COPY_POINTERS;
  return COPY_NO_POINTERS;
}
