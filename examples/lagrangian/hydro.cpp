#include "hydro.h"

#include <algorithm>
#include <cmath>

namespace {
constexpr double gamma_gas = 1.4, c_q = 1.0, c_l = 0.3, smooth = 1e-3;
}

Hydro::Hydro(int n, const double *e0)
    : mesh_{std::vector<double>(n + 1), std::vector<double>(n + 1, 0.0), std::vector<double>(n + 1, 0.0)},
      zones_{std::vector<double>(n), std::vector<double>(n), std::vector<double>(n), std::vector<double>(n)},
      u_old_(n + 1) {
  for (int i = 0; i <= n; i++) mesh_.x[i] = static_cast<double>(i) / n;
  for (int j = 0; j < n; j++) {
    zones_.mass[j] = 1.0 / n;  // density 1
    zones_.e[j] = e0[j];
    mesh_.mass[j] += 0.5 * zones_.mass[j], mesh_.mass[j + 1] += 0.5 * zones_.mass[j];
  }
}

// p = (gamma - 1) rho e; q: quadratic and linear viscosity, switched on smoothly where the zone is
// compressed (du < 0)
Hydro Hydro::zeros_like(const Hydro &h) {
  Hydro z(h);
  for (std::vector<double> *v : {&z.mesh_.x, &z.mesh_.u, &z.mesh_.mass, &z.zones_.mass, &z.zones_.e, &z.zones_.p,
                                 &z.zones_.q, &z.u_old_})
    std::fill(v->begin(), v->end(), 0.0);
  return z;
}

void Hydro::equation_of_state() {
  const int n = zones();
  const double *x = mesh_.x.data(), *u = mesh_.u.data(), *m = zones_.mass.data(), *e = zones_.e.data();
  double *p = zones_.p.data(), *q = zones_.q.data();
#pragma omp parallel for schedule(static)
  for (int j = 0; j < n; j++) {
    double rho = m[j] / (x[j + 1] - x[j]), du = u[j + 1] - u[j];
    double c = std::sqrt(gamma_gas * (gamma_gas - 1) * e[j]);
    double on = 0.5 * (1 - std::tanh(du / smooth));
    p[j] = (gamma_gas - 1) * rho * e[j];
    q[j] = on * rho * (c_q * du * du + c_l * c * std::sqrt(du * du + smooth * smooth));
  }
}

void Hydro::accelerate_and_move(double dt) {
  const int n = zones();
  const double *p = zones_.p.data(), *q = zones_.q.data(), *mn = mesh_.mass.data();
  double *x = mesh_.x.data(), *u = mesh_.u.data(), *uo = u_old_.data();
#pragma omp parallel for schedule(static)
  for (int i = 0; i <= n; i++) {
    uo[i] = u[i];
    if (i == 0 || i == n) continue;  // walls
    double force = (p[i - 1] + q[i - 1]) - (p[i] + q[i]);
    u[i] += dt * force / mn[i];
    x[i] += dt * u[i];
  }
}

// de = -(p + q) dV / M, with the zone's volume change from the time-centred velocities
void Hydro::work(double dt, const std::vector<double> &u_old) {
  const int n = zones();
  const double *u = mesh_.u.data(), *uo = u_old.data(), *p = zones_.p.data(), *q = zones_.q.data(), *m = zones_.mass.data();
  double *e = zones_.e.data();
#pragma omp parallel for schedule(static)
  for (int j = 0; j < n; j++) {
    double dv = dt * 0.5 * ((u[j + 1] + uo[j + 1]) - (u[j] + uo[j]));
    e[j] -= (p[j] + q[j]) * dv / m[j];
  }
}

void Hydro::step(double dt) {
  equation_of_state();
  accelerate_and_move(dt);
  work(dt, u_old_);
}

double Hydro::weighted_energy() const {
  const int n = zones();
  double s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
  for (int j = 0; j < n; j++) {
    double xc = 0.5 * (mesh_.x[j] + mesh_.x[j + 1]);
    s += (1 + 0.5 * std::sin(6.0 * xc)) * zones_.mass[j] * zones_.e[j];
  }
  return s;
}

double run(Hydro *h, int steps, double dt) {
  for (int s = 0; s < steps; s++) h->step(dt);
  return h->weighted_energy();
}

double simulate(const double *e0, int zones, int steps, double dt) {
  Hydro h(zones, e0);
  return run(&h, steps, dt);
}
