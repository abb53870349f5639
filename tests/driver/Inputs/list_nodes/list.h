/* A singly linked list of pairs, in a file of its own: the constructor copies a pair in beside the link. */
typedef struct Node {
  struct Node *next;
  double val[2];
} Node;

Node *node_make(Node *next, const double *pair);
double list_energy(const Node *n);
void list_free(Node *n);
