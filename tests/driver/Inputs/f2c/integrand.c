/* The integrand, its parameters in a COMMON block, defined apart from the file that asks for derivatives. */
typedef double doublereal;
typedef int integer;

struct {
  doublereal alpha, beta;
} parms_;

extern double exp(double), cos(double);

doublereal fint_(doublereal *t) { return exp(-parms_.alpha * *t) * cos(parms_.beta * *t); }

/* the objective: the integral over [0, 2] for the parameters p */
doublereal objective_(doublereal *p, integer *panels) {
  extern int gauss7_();
  extern doublereal fint_();
  doublereal a = 0., b = 2., r;
  parms_.alpha = p[0];
  parms_.beta = p[1];
  gauss7_(fint_, &a, &b, panels, &r);
  return r;
}
