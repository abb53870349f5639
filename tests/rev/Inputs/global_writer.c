/* A function whose body the differentiated translation unit does not see, writing a global it defines. */
extern double shared_table[8];
void rewrite_shared_table(void) {
  for (int i = 0; i < 8; i++) shared_table[i] = 3 * shared_table[i] + 1;
}
