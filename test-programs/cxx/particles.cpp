// C++/OpenMP particles: classes, a virtual function, templates, std::vector<double>, lambdas,
// an OpenMP `parallel for` inside a member function, an exception thrown and caught, output
// through std::cout. Every report of a trace of this program must name its functions the way
// the source does (`sim::Particles::step(double)`, not `_ZN3sim9Particles4stepEd`).
//
// N = 4096 particles; particle i starts at x[i] = 0.5 * i with velocity v[i] = (i % 7) - 3.
// Particles::step(dt) moves every particle by v[i] * dt in a `parallel for` (STEP: one load of
// v[i], one load and one store of x[i] per particle, whatever the team size); main takes
// STEPS = 10 steps of dt = 0.25. Every value below is exact in binary floating point, and each
// x[i] is computed by one thread with the same operations at any thread count, so the output is
// the same with 1 and with 4 threads:
//
//   x[i] = 0.5 * i + 10 * 0.25 * v[i] = 0.5 * i + 2.5 * v[i]
//   sum of x: 0.5 * (4095 * 4096 / 2) + 2.5 * sum of v; v sums to 0 over each full cycle of 7
//     (-3..3), 4096 = 585 * 7 + 1 and the last particle (i = 4095, 4095 % 7 = 0) has v = -3:
//     0.5 * 8386560 - 7.5 = 4193272.5
//   kinetic energy, sum of 0.5 * v[i]^2 (a lambda through the template `sum_of`): each cycle
//     has v^2 = 9 + 4 + 1 + 0 + 1 + 4 + 9 = 28, so 585 * 14 + 0.5 * 9 = 8194.5
//   moving right (v > 0, a lambda through the template `count_where`): 3 per cycle, 1755
//   particle 4095 at 0.5 * 4095 + 2.5 * -3 = 2040.0 (Particles::at, GET)
//   Particles::at(5000) throws std::out_of_range; main catches it and prints its message.
//   name() is virtual: "particles" through a System&.
//
// The constructor touches every cache line of x and v first (std::vector<double>(n) zero-fills
// them, then INIT_X and INIT_V write them), so the STEP line touches no line for the first
// time: no cold reference there, at any team size.
//
// Expected output:
//   system: particles
//   particles: 4096
//   steps: 10
//   sum x: 4193272.5
//   kinetic: 8194.5
//   moving right: 1755
//   x[4095]: 2040.0
//   caught: particle 5000 out of range (4096 particles)
//
// debug_dump() is never called: `rda-report annotate` must not list it, although its
// instructions share source lines with functions that ran (the std::vector accessors it and
// they inline from the library's headers).
#include <cstddef>
#include <iomanip>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace sim {

class System {
  public:
    virtual ~System() = default;
    virtual std::string name() const = 0;
};

class Particles : public System {
  public:
    explicit Particles(std::size_t n) : x_(n), v_(n) {
        for (std::size_t i = 0; i < n; i++) {
            x_[i] = 0.5 * static_cast<double>(i);                      /* INIT_X */
            v_[i] = static_cast<double>(static_cast<long>(i % 7) - 3); /* INIT_V */
        }
    }

    std::string name() const override { return "particles"; }

    std::size_t size() const { return x_.size(); }

    // Moves every particle by v * dt, iterations shared among the team.
    void step(double dt);

    double at(std::size_t i) const {
        if (i >= x_.size())
            throw std::out_of_range("particle " + std::to_string(i) + " out of range (" +
                                    std::to_string(x_.size()) + " particles)");
        return x_[i]; /* GET */
    }

    const std::vector<double> &positions() const { return x_; }
    const std::vector<double> &velocities() const { return v_; }

  private:
    std::vector<double> x_;
    std::vector<double> v_;
};

void Particles::step(double dt) {
    const long n = static_cast<long>(x_.size());
    double *x = x_.data();
    const double *v = v_.data();
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++)
        x[i] += v[i] * dt; /* STEP */
}

// The sum of f(e) over the elements, in order.
template <typename T, typename F> T sum_of(const std::vector<T> &values, F f) {
    T total = T();
    for (const T &e : values)
        total += f(e); /* SUM */
    return total;
}

// How many elements satisfy the predicate.
template <typename T, typename P> std::size_t count_where(const std::vector<T> &values, P pred) {
    std::size_t n = 0;
    for (const T &e : values)
        if (pred(e))
            n++;
    return n;
}

} // namespace sim

// Never called (see the header comment).
double debug_dump(const sim::Particles &p) {
    double s = 0;
    for (std::size_t i = 0; i < p.size(); i += 3)
        s += p.at(i);
    std::cout << "dump " << s << "\n";
    return s;
}

int main() {
    const std::size_t n = 4096;
    const int steps = 10;
    sim::Particles particles(n);
    const sim::System &system = particles;
    std::cout << "system: " << system.name() << "\n";
    for (int s = 0; s < steps; s++)
        particles.step(0.25);
    std::cout << std::fixed << std::setprecision(1);
    std::cout << "particles: " << particles.size() << "\n";
    std::cout << "steps: " << steps << "\n";
    std::cout << "sum x: " << sim::sum_of(particles.positions(), [](double x) { return x; })
              << "\n";
    std::cout << "kinetic: "
              << sim::sum_of(particles.velocities(), [](double v) { return 0.5 * v * v; })
              << "\n";
    const double threshold = 0.0;
    std::cout << "moving right: "
              << sim::count_where(particles.velocities(),
                                  [threshold](double v) { return v > threshold; })
              << "\n";
    std::cout << "x[4095]: " << particles.at(4095) << "\n";
    try {
        // Read before printing: nothing of this line is printed when it throws.
        const double beyond = particles.at(5000);
        std::cout << "x[5000]: " << beyond << "\n";
    } catch (const std::out_of_range &e) {
        std::cout << "caught: " << e.what() << "\n";
    }
    return 0;
}
