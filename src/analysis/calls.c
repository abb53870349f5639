#include "analysis/calls.h"

#include <string.h>

#include "ad/paradigms.h"
#include "ad/registered.h"
#include "ad/request.h"
#include "ir/ir.h"
#include "omp/omp.h"

/* Library functions that take or return data but never carry a derivative: their outputs are text (a
 * string's copy: strdup), integers, time, or nothing. A function that writes floating-point data (fread,
 * scanf) is not here: with an active buffer it is a diagnostic. */
static const char *const inactive_functions[] = {
    "printf", "fprintf", "sprintf", "snprintf", "vprintf", "vfprintf", "vsnprintf", "puts", "fputs",
    "putchar", "fputc", "putc", "fwrite", "fflush", "fopen", "fmemopen", "fclose", "perror", "exit", "_exit", "abort",
    "__assert_fail", "__stack_chk_fail", "clock", "time", "clock_gettime", "gettimeofday", "rand", "srand", "rand_r",
    "random", "srandom",
    "getenv", "atoi", "atol", "atof", "strtol", "strtoul", "strtod", "strlen", "strcmp", "strncmp",
    "memcmp", "bcmp", "strdup", "strndup", "strcpy", "strncpy", "stpcpy", "stpncpy", "strcat", "strncat",
    "__strcpy_chk", "__strncpy_chk", "__stpcpy_chk", "__stpncpy_chk", "__strcat_chk", "__strncat_chk",
    /* printf's family as -D_FORTIFY_SOURCE writes it (distributions' packaging flags) */
    "__printf_chk", "__fprintf_chk", "__sprintf_chk", "__snprintf_chk", "__vprintf_chk", "__vfprintf_chk",
    "__vsprintf_chk", "__vsnprintf_chk", "__dprintf_chk", "__vdprintf_chk", "__puts_chk",
    "usleep", "sleep", "omp_get_thread_num", "omp_get_num_threads",
    "omp_get_max_threads", "omp_get_wtime", "omp_in_parallel", "__parad_rt_thrown", "__parad_rt_constant", "__parad_rt_constant_f",
    "__parad_rt_ckpt_note", "__parad_rt_ckpt_note_load", "__parad_rt_ckpt_note_team",
    "__parad_rt_ckpt_note_load_team", "__parad_rt_ckpt_span", "__parad_rt_ckpt_auto", "__parad_rt_tape_budget_watch",
    "__parad_rt_ckpt_auto_learn", "__parad_rt_ckpt_unknown_callee", "__parad_rt_ckpt_threw", "__parad_rt_block_note", "__parad_rt_block_note_heap",
    "__parad_rt_block_forget", "__parad_mpi_note_outside_init", "__parad_mpi_note_outside_free",
    "__parad_rt_argument_in_global", "__parad_rt_argument_in_block", "__parad_rt_argument_in_held",
    "__parad_rt_argument_in_table", "__parad_rt_constant_holds_argument",
    /* a checkpointed step's notes (ad/checkpoint_notes.c) */
    /* libstdc++'s hash tables (std::unordered_map): the bucket count's policy (a float load factor the
       program does not differentiate, sizes) and the hashes of bytes (of std::string keys, whose own
       members live in libstdc++ too: such maps are still refused there) */
    "_ZNKSt8__detail20_Prime_rehash_policy14_M_need_rehashEmmm", "_ZNKSt8__detail20_Prime_rehash_policy11_M_next_bktEm",
    "_ZSt11_Hash_bytesPKvmm", "_ZSt15_Fnv_hash_bytesPKvmm",
};

/* C++'s text output, by the start of the mangled name, whether the header gives it a body or not: a
 * number written to a stream (std::ostream's operator<< and _M_insert, the free operator<< for strings
 * and characters) or made a string (std::to_string, and the vsnprintf wrapper it calls). A value printed
 * on the path a derivative takes carries nothing out, as printf's does. */
static const char *const text_output_prefixes[] = {
    "_ZNSolsE", "_ZNSo9_M_insertI", "_ZStlsISt11char_traitsIcEERSt13basic_ostreamIcT_ES5_",
    "_ZSt16__ostream_insertIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_", "_ZNSo5flushEv", "_ZNSo3putEc",
    "_ZSt4endlIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_", "_ZNSt7__cxx119to_stringE",
    "_ZN9__gnu_cxx12__to_xstringINSt7__cxx1112basic_string",
};

/* Of those, the ones that write through pointer arguments (bit i: argument i) memory the program may read
 * back: text, an end pointer, a time (printf's %n aside). */
static const struct {
  const char *name;
  unsigned args;
} inactive_writers[] = {
    {"sprintf", 1}, {"snprintf", 1}, {"vsnprintf", 1}, {"strtol", 2}, {"strtoul", 2}, {"strtod", 2},
    /* a name copied into a record's char field beside its values */
    {"strcpy", 1}, {"strncpy", 1}, {"stpcpy", 1}, {"stpncpy", 1}, {"strcat", 1}, {"strncat", 1},
    {"__strcpy_chk", 1}, {"__strncpy_chk", 1}, {"__stpcpy_chk", 1}, {"__stpncpy_chk", 1}, {"__strcat_chk", 1},
    {"__strncat_chk", 1}, {"__sprintf_chk", 1}, {"__snprintf_chk", 1}, {"__vsprintf_chk", 1}, {"__vsnprintf_chk", 1},
    {"time", 1},    {"clock_gettime", 2}, {"gettimeofday", 3}, {"rand_r", 1},
    /* the policy's next size to grow at */
    {"_ZNKSt8__detail20_Prime_rehash_policy14_M_need_rehashEmmm", 1}, {"_ZNKSt8__detail20_Prime_rehash_policy11_M_next_bktEm", 1},
};

/* libstdc++'s std::string (basic_string<char>) members, by the start of the mangled name, whether the
 * header gives them a body or not (at -O0 most have none: the library instantiates them): they read and
 * write characters, a length and a buffer, never a float, so a string in a struct with derivatives carries
 * none (its shadow stays as the caller made it). They may write through any pointer they are given. */
static const char *const string_member_prefixes[] = {
    "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE", "_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE"};

/* Library functions that search an array with the program's comparator, which only reads: no derivative
 * goes through them while the array has no shadow, whatever the key and the comparator read. With a
 * shadow, the reason they are refused. (A call of bsearch in a function a request reaches is written out
 * as its search first, ad/library_expansions.h: this is for one that reaches the generators otherwise.) */
static const struct {
  const char *name;
  unsigned array;
  const char *why;
} array_functions[] = {
    {"bsearch", 1, "the pointer bsearch returns into it would have no shadow, and derivatives read through it "
                   "would be lost"},
};

/* libstdc++'s node operations of std::map, std::set (red-black trees) and std::list, out of line in the
 * shared library. They read and rewrite the nodes' links and colours, never the values the nodes hold. A
 * container's shadow has the primal's shape, every link in a shadow node being the shadow of the primal's
 * link: the same call on the shadows (the pointer arguments in `shadow_args`) keeps it so, and a node it
 * returns has the mirrored call's result for its shadow. No float goes through them, so the reverse sweep
 * has nothing to do (Enzyme does the same). */
static const struct {
  const char *name;
  unsigned shadow_args;
} mirrored_calls[] = {
    {"_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base", 1},
    {"_ZSt18_Rb_tree_incrementPKSt18_Rb_tree_node_base", 1},
    {"_ZSt18_Rb_tree_decrementPSt18_Rb_tree_node_base", 1},
    {"_ZSt18_Rb_tree_decrementPKSt18_Rb_tree_node_base", 1},
    {"_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_", 0xe}, /* (left?, node, parent, header) */
    {"_ZSt28_Rb_tree_rebalance_for_erasePSt18_Rb_tree_node_baseRS_", 3},       /* (node, header) -> node */
    {"_ZNSt8__detail15_List_node_base7_M_hookEPS0_", 3},
    {"_ZNSt8__detail15_List_node_base9_M_unhookEv", 1},
    {"_ZNSt8__detail15_List_node_base11_M_transferEPS0_S1_", 7},
    {"_ZNSt8__detail15_List_node_base10_M_reverseEv", 1},
    {"_ZNSt8__detail15_List_node_base4swapERS0_S1_", 3},
};

/* Intrinsics that take pointers or floats but have no derivative of their own. */
static const char *const inactive_intrinsic_prefixes[] = {
    "llvm.lifetime.", "llvm.invariant.", "llvm.prefetch", "llvm.objectsize", "llvm.assume",
    "llvm.experimental.noalias.scope.decl", "llvm.var.annotation", "llvm.stacksave", "llvm.stackrestore",
    "llvm.is.fpclass", "llvm.donothing", "llvm.sideeffect", "llvm.trap", "llvm.debugtrap",
};

static bool name_in(const char *name, const char *const *list, size_t n, bool prefix) {
  for (size_t i = 0; i < n; i++)
    if (prefix ? !strncmp(name, list[i], strlen(list[i])) : !strcmp(name, list[i])) return true;
  return false;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Functions returning fresh memory that free releases: where their arguments give its size (a count
 * times a size, calloc's), its alignment, and, for posix_memalign, the slot it is returned through. -1:
 * none (a count of one). Shadows are made from the same arguments (call_alloc_shape). C++'s operator new
 * and new[], plain and aligned, are here too. */
typedef struct {
  const char *name;
  int count, size, align, slot;
} Allocator;

static const Allocator allocators[] = {
    {"malloc", -1, 0, -1, -1},
    {"calloc", 0, 1, -1, -1},
    {"aligned_alloc", -1, 1, 0, -1},
    {"memalign", -1, 1, 0, -1},
    {"posix_memalign", -1, 2, 1, 0},
    {"_Znwm", -1, 0, -1, -1},
    {"_Znam", -1, 0, -1, -1},
    {"_ZnwmSt11align_val_t", -1, 0, 1, -1},
    {"_ZnamSt11align_val_t", -1, 0, 1, -1},
    /* the nothrow forms (std::get_temporary_buffer's, under std::stable_sort and std::inplace_merge) */
    {"_ZnwmRKSt9nothrow_t", -1, 0, -1, -1},
    {"_ZnamRKSt9nothrow_t", -1, 0, -1, -1},
    {"_ZnwmSt11align_val_tRKSt9nothrow_t", -1, 0, 1, -1},
    {"_ZnamSt11align_val_tRKSt9nothrow_t", -1, 0, 1, -1},
};

static const Allocator *allocator_of(const char *name) {
  for (size_t i = 0; i < COUNT(allocators); i++)
    if (!strcmp(name, allocators[i].name)) return &allocators[i];
  return NULL;
}

/* A call can pass a derivative on only through its result or through memory it is given: one that
 * returns an integer (or nothing) and takes no pointer (lround, isnan, a logging function) has none,
 * whatever floats it reads. */
static bool touches_derivatives(LLVMValueRef call) {
  if (ir_carries_derivative(LLVMTypeOf(call))) return true;
  for (unsigned i = 0, n = ir_num_call_args(call); i < n; i++)
    if (ir_is_ptr(ir_scalar_type(LLVMTypeOf(LLVMGetArgOperand(call, i))))) return true;
  return false;
}

/* The name a call is classified by: the callee's, or the function the program registered it as like
 * (__enzyme_function_like, ad/registered.h). */
static const char *effective_name(LLVMValueRef call) {
  const char *like = registered_function_like(ir_called_function(call));
  return like ? like : ir_called_name(call);
}

/* The rule of a function registered as like a math function: the callee's own signature was checked
 * against it when registered. */
static const MathRule *rule_of_like(LLVMValueRef call, const char *like) {
  const MathRule *r = rule_for_name(like);
  return r && ir_num_call_args(call) == r->nargs && ir_is_fp_or_fp_vector(LLVMTypeOf(call)) ? r : NULL;
}

CallKind call_classify(LLVMValueRef call, const MathRule **rule) {
  if (rule) *rule = NULL;
  LLVMValueRef fn = ir_called_function(call);
  if (!fn) return LLVMIsAInlineAsm(LLVMGetCalledValue(call)) ? CALL_UNKNOWN : CALL_INDIRECT;
  const char *name = LLVMGetValueName(fn), *like = registered_function_like(fn);
  if (!strncmp(name, "llvm.dbg.", 9)) return CALL_DEBUG;
  if (request_is_canonical_call(call)) return CALL_REQUEST;
  /* what the program registered about its own functions comes before their bodies */
  unsigned arg;
  if (registered_inactive_function(fn)) return CALL_INACTIVE;
  if (registered_allocator(fn, &arg)) return CALL_ALLOC;
  if (registered_deallocator(fn, &arg)) return CALL_FREE;
  const MathRule *r = like ? rule_of_like(call, like) : rule_for_call(call);
  if (r) {
    if (rule) *rule = r;
    return CALL_MATH;
  }
  if (like) name = like; /* malloc, calloc, realloc, free */
  else if (name_in(name, text_output_prefixes, COUNT(text_output_prefixes), true) ||
           name_in(name, string_member_prefixes, COUNT(string_member_prefixes), true) ||
           !strncmp(name, "__ubsan_handle_", 15)) /* -fsanitize's reports: the value's bits, printed */
    return CALL_INACTIVE;
  else if (!LLVMIsDeclaration(fn)) return CALL_MODULE;
  if (!strncmp(name, "llvm.memcpy", 11) || !strncmp(name, "llvm.memmove", 12) || !strcmp(name, "memcpy") ||
      !strcmp(name, "memmove"))
    return CALL_MEMCPY;
  if (!strncmp(name, "llvm.memset", 11) || !strcmp(name, "memset")) return CALL_MEMSET;
  /* C++'s deletes, plain, sized and aligned: free */
  static const char *const cxx_delete[] = {"_ZdlPv", "_ZdaPv", "_ZdlPvm", "_ZdaPvm", "_ZdlPvSt11align_val_t",
                                           "_ZdaPvSt11align_val_t", "_ZdlPvmSt11align_val_t", "_ZdaPvmSt11align_val_t",
                                           "_ZdlPvRKSt9nothrow_t", "_ZdaPvRKSt9nothrow_t",
                                           "_ZdlPvSt11align_val_tRKSt9nothrow_t", "_ZdaPvSt11align_val_tRKSt9nothrow_t"};
  if (allocator_of(name)) return CALL_ALLOC;
  if (!strcmp(name, "realloc") || !strcmp(name, CKPT_REALLOC)) return CALL_REALLOC;
  if (!strcmp(name, "free") || !strcmp(name, CKPT_FREE_PRIMAL) || !strcmp(name, CKPT_DELETE_PRIMAL) ||
      !strcmp(name, CKPT_DELETE_ARRAY_PRIMAL) || name_in(name, cxx_delete, COUNT(cxx_delete), false))
    return CALL_FREE;
  if (name_in(name, inactive_functions, COUNT(inactive_functions), false)) return CALL_INACTIVE;
  if (call_mirrored(call, NULL)) return CALL_MIRRORED;
  CallKind owned; /* a paradigm's runtime: OpenMP's, MPI (ad/paradigms.c) */
  if (paradigm_owns(call, &owned)) return owned;
  if (!strncmp(name, "llvm.", 5)) {
    if (name_in(name, inactive_intrinsic_prefixes, COUNT(inactive_intrinsic_prefixes), true)) return CALL_INACTIVE;
    if (!touches_derivatives(call)) return CALL_INACTIVE;
    return CALL_UNKNOWN;
  }
  if (!touches_derivatives(call)) return CALL_INACTIVE;
  return CALL_UNKNOWN;
}

bool call_known_by_name(LLVMValueRef call) {
  LLVMValueRef fn = ir_called_function(call);
  if (!fn || !LLVMIsDeclaration(fn)) return false;
  switch (call_classify(call, NULL)) {
  case CALL_DEBUG:
  case CALL_MATH:
  case CALL_MEMCPY:
  case CALL_MEMSET:
  case CALL_ALLOC:
  case CALL_REALLOC:
  case CALL_FREE:
  case CALL_MIRRORED:
  case CALL_OMP: return !registered_inactive_function(fn);
  case CALL_INACTIVE: {
    const char *name = LLVMGetValueName(fn);
    return !registered_inactive_function(fn) &&
           (!strncmp(name, "llvm.", 5) || name_in(name, inactive_functions, COUNT(inactive_functions), false));
  }
  default: return false;
  }
}

static const struct {
  const char *name;
  TapeAction action;
  unsigned tangents;
} tape_rules[] = {
    {"__parad_rt_tape_begin", TAPE_TWIN_BEGIN, 0},
    {"__parad_rt_tape_grow", TAPE_TWIN_GROW, 0},
    {"__parad_rt_tape_back", TAPE_SAME, 1},
    {"__parad_rt_tape_end", TAPE_TWIN_END, 0},
    {"__parad_rt_tape_mark_peak", TAPE_NOTHING, 0},
    {"__parad_rt_shadow_alloc", TAPE_SAME, 0},
    {"__parad_rt_shadow_alloca", TAPE_SAME, 0},
    {"__parad_rt_shadow_alloc_aligned", TAPE_SAME, 0},
    {"__parad_rt_shadow_new", TAPE_SAME, 0},
    {"__parad_rt_shadow_give", TAPE_SAME, 1},
    {"__parad_rt_free_later", TAPE_SAME, 1},
    {"__parad_rt_free_later_floats", TAPE_SAME, 1},
    {"__parad_rt_delete_later", TAPE_SAME, 1},
    {"__parad_rt_realloc_shadow", TAPE_SAME, 2},
    {"__parad_rt_realloc_shadow_reverse", TAPE_SAME, 1},
    {"__parad_rt_realloc_pointers", TAPE_SAME, 1},
    {"__parad_rt_realloc_adjoints", TAPE_SAME, 1},
    {"__parad_rt_copy_adjoint_f64", TAPE_SAME, 3},
    {"__parad_rt_copy_adjoint_f32", TAPE_SAME, 3},
    {"__parad_rt_copy_adjoint_fields", TAPE_SAME, 3},
    {"__parad_rt_copy_shadow_pointers", TAPE_SAME, 3},
};

TapeAction call_tape_action(LLVMValueRef call, unsigned *tangent_args) {
  const char *name = ir_called_name(call);
  *tangent_args = 0;
  for (size_t i = 0; i < COUNT(tape_rules); i++)
    if (!strcmp(name, tape_rules[i].name)) {
      *tangent_args = tape_rules[i].tangents;
      return tape_rules[i].action;
    }
  return TAPE_NONE;
}

bool call_returns_tape_memory(LLVMValueRef call) {
  unsigned args;
  TapeAction a = call_tape_action(call, &args);
  return a == TAPE_TWIN_BEGIN || a == TAPE_TWIN_GROW || (a == TAPE_SAME && ir_is_ptr(LLVMTypeOf(call)));
}

bool call_alloc_shape(LLVMValueRef call, int arg[2]) {
  unsigned size_arg;
  if (registered_allocator(ir_called_function(call), &size_arg)) { /* one block of the size it is given */
    arg[0] = -1;
    arg[1] = (int)size_arg;
    return false;
  }
  const Allocator *a = allocator_of(effective_name(call));
  bool aligned = a->align >= 0;
  arg[0] = aligned ? a->size : a->count; /* the aligned size, or calloc's count (malloc, new: one) */
  arg[1] = aligned ? a->align : a->size; /* the alignment, or the size */
  return aligned;
}

int call_alloc_slot(LLVMValueRef call) {
  const Allocator *a = allocator_of(effective_name(call));
  return a ? a->slot : -1;
}

const char *call_intrinsic_refusal(LLVMValueRef call) {
  const char *name = ir_called_name(call);
  if (strncmp(name, "llvm.", 5)) return NULL;
  if (!strncmp(name, "llvm.experimental.constrained.", 30))
    return "strict floating point (-frounding-math, -ffp-model=strict, -ffp-exception-behavior=strict or maytrap, "
           "#pragma STDC FENV_ACCESS ON) is not differentiated: build the code derivatives reach without it";
  if (!strncmp(name, "llvm.x86.", 9) || !strncmp(name, "llvm.aarch64.", 13))
    return "Parad has no derivative of this target's vector intrinsics (immintrin.h's _mm..._pd, _ps): write the "
           "operation in C, or with the compiler's vector extensions";
  return "Parad has no derivative of this LLVM intrinsic";
}

const char *call_array_function(LLVMValueRef call, unsigned *array) {
  const char *name = ir_called_name(call);
  for (size_t k = 0; k < COUNT(array_functions); k++)
    if (!strcmp(name, array_functions[k].name) && array_functions[k].array < ir_num_call_args(call)) {
      *array = array_functions[k].array;
      return array_functions[k].why;
    }
  return NULL;
}

bool call_waits_for_thread(LLVMValueRef call) {
  static const char *const waits[] = {"pthread_cond_wait", "pthread_cond_timedwait", "pthread_cond_clockwait",
                                      "pthread_join", "pthread_timedjoin_np", "pthread_barrier_wait", "sem_wait",
                                      "sem_timedwait", "sem_clockwait", "cnd_wait", "cnd_timedwait", "thrd_join"};
  return name_in(ir_called_name(call), waits, COUNT(waits), false);
}

bool call_is_nonlocal_jump(LLVMValueRef call) {
  static const char *const jumps[] = {"longjmp", "_longjmp", "siglongjmp", "__longjmp_chk"};
  unsigned twice = ir_attr_kind("returns_twice");
  LLVMValueRef callee = ir_called_function(call);
  if (LLVMGetCallSiteEnumAttribute(call, LLVMAttributeFunctionIndex, twice) ||
      (callee && LLVMGetEnumAttributeAtIndex(callee, LLVMAttributeFunctionIndex, twice)))
    return true;
  return name_in(ir_called_name(call), jumps, COUNT(jumps), false);
}

bool call_writes_nothing(LLVMValueRef call) {
  CallKind k = call_classify(call, NULL);
  if (k == CALL_DEBUG) return true;
  if (k != CALL_MATH && k != CALL_INACTIVE) return false;
  unsigned id = LLVMGetIntrinsicID(LLVMGetCalledValue(call));
  if (id && (id == LLVMLookupIntrinsicID("llvm.lifetime.start", 19) || id == LLVMLookupIntrinsicID("llvm.lifetime.end", 17)))
    return true;
  for (unsigned a = 0, n = (unsigned)LLVMGetNumArgOperands(call); a < n; a++)
    if (LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(call, a))) == LLVMPointerTypeKind) return false;
  return k == CALL_MATH || id;
}

bool call_quiet(LLVMValueRef call) {
  return call_writes_nothing(call) || (call_classify(call, NULL) == CALL_OMP && omp_is_quiet(call));
}

bool call_draws_hidden_state(LLVMValueRef call) {
  static const char *const drawing[] = {"rand", "srand", "random", "srandom"};
  return call_classify(call, NULL) == CALL_INACTIVE && name_in(ir_called_name(call), drawing, COUNT(drawing), false);
}

bool call_writes_argument(LLVMValueRef call, unsigned i) {
  const MathRule *rule;
  const char *name = ir_called_name(call);
  if (i >= ir_num_call_args(call) || !ir_is_ptr(LLVMTypeOf(LLVMGetArgOperand(call, i)))) return false;
  switch (call_classify(call, &rule)) {
  case CALL_DEBUG: return false;
  case CALL_MATH: return rule->writes != WRITES_NONE && i == rule->nargs - 1;
  case CALL_ALLOC: return call_alloc_slot(call) == (int)i;
  case CALL_FREE: return false;
  case CALL_INACTIVE:
    if (name_in(name, string_member_prefixes, COUNT(string_member_prefixes), true)) return true;
    for (size_t k = 0; k < COUNT(inactive_writers); k++)
      if (!strcmp(name, inactive_writers[k].name)) return i < 32 && (inactive_writers[k].args >> i & 1);
    /* the others write streams, or (MPI's) a rank, a size, a datatype's handle: no data the reverse sweep
       reads again */
    return false;
  default: return true;
  }
}

bool call_mirrored(LLVMValueRef call, unsigned *shadow_args) {
  const char *name = effective_name(call);
  for (size_t k = 0; k < COUNT(mirrored_calls); k++)
    if (!strcmp(name, mirrored_calls[k].name)) {
      if (shadow_args) *shadow_args = mirrored_calls[k].shadow_args;
      return true;
    }
  return false;
}

unsigned call_freed_arg(LLVMValueRef call) {
  unsigned ptr_arg;
  return registered_deallocator(ir_called_function(call), &ptr_arg) ? ptr_arg : 0;
}

bool call_cxx_family(LLVMValueRef call, const char **alloc, const char **dealloc) {
  LLVMValueRef fn = ir_called_function(call);
  unsigned arg;
  if (!fn || registered_allocator(fn, &arg) || registered_deallocator(fn, &arg)) return false;
  const char *name = effective_name(call);
  if (strstr(name, "align_val_t")) return false;
  bool scalar = !strncmp(name, "_Znw", 4) || !strncmp(name, "_ZdlPv", 6);
  if (!scalar && strncmp(name, "_Zna", 4) && strncmp(name, "_ZdaPv", 6)) return false;
  *alloc = scalar ? "_Znwm" : "_Znam";
  *dealloc = scalar ? "_ZdlPv" : "_ZdaPv";
  return true;
}

const char *call_kind_name(CallKind k) {
  static const char *const names[] = {"debug", "math", "memcpy", "memset", "alloc", "realloc", "free",
                                      "inactive", "module", "request", "omp", "mpi", "unknown", "indirect",
                                      "mirrored"};
  return names[k];
}

LLVMValueRef call_site_argument(LLVMValueRef user, LLVMValueRef fn, unsigned index) {
  if (!ir_is_call(user)) return NULL;
  unsigned k, n = ir_num_call_args(user);
  if (ir_called_function(user) == fn) {
    k = index;
  } else if (omp_classify(user) == OMP_FORK && omp_fork_outlined(user) == fn) {
    if (index < OMP_OUTLINED_FIRST_PARAM) return NULL; /* the thread ids */
    k = index - OMP_OUTLINED_FIRST_PARAM + OMP_FORK_FIRST_ARG;
  } else if (request_is_canonical_call(user) && ir_strip_pointer_casts(LLVMGetArgOperand(user, request_fn_arg(user))) == fn) {
    Request r;
    if (!request_decode(user, &r)) return NULL;
    k = request_arg_index(&r, index);
    request_free(&r);
  } else {
    return NULL;
  }
  return k < n ? LLVMGetArgOperand(user, k) : NULL;
}

bool call_variadic_takes_values_only(LLVMValueRef call) {
  if (!LLVMIsFunctionVarArg(LLVMGetCalledFunctionType(call)) || ir_carries_derivative(LLVMTypeOf(call))) return false;
  for (unsigned i = 0, n = ir_num_call_args(call); i < n; i++) {
    LLVMValueRef a = LLVMGetArgOperand(call, i);
    if (ir_is_ptr(LLVMTypeOf(a)) && !LLVMIsAConstant(a)) return false;
    if (!ir_is_ptr(LLVMTypeOf(a)) && !ir_is_int(LLVMTypeOf(a)) && !ir_is_fp(LLVMTypeOf(a))) return false; /* a struct by value */
  }
  return true;
}
