// A 1-D Lagrangian hydrodynamics code in the style of the C++ mini-apps (LULESH's staggered mesh, in one
// dimension): nodes carry positions and velocities, zones between them carry mass, specific internal
// energy, pressure (ideal gas) and an artificial viscosity; each step accelerates the nodes by the
// pressure differences, moves them, and does the zones' p dV work. Storage in std::vector, loops over
// nodes and zones in OpenMP.
#pragma once
#include <vector>

struct Mesh {  // nodes 0..n
  std::vector<double> x, u, mass;
};

struct Zones {  // zone j between nodes j and j + 1
  std::vector<double> mass, e, p, q;
};

class Hydro {
 public:
  Hydro(int zones, const double *e0);
  // A Hydro of the same sizes holding zeros everywhere: the shadow a derivative call takes beside h (its
  // energies then hold the tangent's seed or, after a gradient, the adjoints of the initial energies)
  static Hydro zeros_like(const Hydro &h);
  void step(double dt);
  double weighted_energy() const;  // sum_j w_j M_j e_j, w smooth over the domain
  int zones() const { return static_cast<int>(zones_.e.size()); }
  std::vector<double> &energies() { return zones_.e; }

 private:
  void equation_of_state();
  void accelerate_and_move(double dt);
  void work(double dt, const std::vector<double> &u_old);
  Mesh mesh_;
  Zones zones_;
  std::vector<double> u_old_;
};

// The function the example differentiates: run the steps on h, return the weighted energy at the end.
double run(Hydro *h, int steps, double dt);
// The same from initial energies (for finite differences).
double simulate(const double *e0, int zones, int steps, double dt);
