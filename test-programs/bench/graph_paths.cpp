// graph_paths.cpp: shortest paths on a random sparse graph, written the way C++ application code
// is: `std::vector<std::vector<Edge>>` adjacency lists, Dijkstra with a `std::priority_queue`
// of pairs, an `std::unordered_map` memo of visited sources, `std::sort` of the results and a
// small class template. Every container call is an inlined template, so the traced code is
// many small blocks of pointer-chasing loads: the tracing overhead bench's C++ case.
//
// NODES nodes (default 100000), DEGREE out-edges each (default 6), SOURCES Dijkstra runs
// (default 2) from nodes spread over the graph. Edge targets and weights come from a fixed
// linear congruential generator, so the output is the same on every run and every compiler.
// Prints the sum of the distances reached, the count of unreachable nodes and the three
// largest distances of the last run.
#include <cstdint>
#include <cstdio>
#include <functional>
#include <queue>
#include <unordered_map>
#include <utility>
#include <vector>
#include <algorithm>

#ifndef NODES
#define NODES 100000
#endif
#ifndef DEGREE
#define DEGREE 6
#endif
#ifndef SOURCES
#define SOURCES 2
#endif

struct Edge {
    std::uint32_t to;
    std::uint32_t weight;
};

template <typename T>
class Lcg {
  public:
    explicit Lcg(std::uint64_t seed) : state_(seed) {}
    T next(T bound) {
        state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<T>((state_ >> 33) % bound);
    }

  private:
    std::uint64_t state_;
};

using Graph = std::vector<std::vector<Edge>>;

static Graph build_graph(std::uint32_t nodes, std::uint32_t degree) {
    Graph g(nodes);
    Lcg<std::uint32_t> rng(42);
    for (std::uint32_t v = 0; v < nodes; v++) {
        // A ring edge keeps every node reachable; the rest are random.
        g[v].push_back(Edge{(v + 1) % nodes, 1 + rng.next(100)});
        for (std::uint32_t k = 1; k < degree; k++)
            g[v].push_back(Edge{rng.next(nodes), 1 + rng.next(100)});
    }
    return g;
}

static std::vector<std::uint64_t> dijkstra(const Graph &g, std::uint32_t source) {
    const std::uint64_t inf = UINT64_MAX;
    std::vector<std::uint64_t> dist(g.size(), inf);
    using Item = std::pair<std::uint64_t, std::uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
    dist[source] = 0;
    queue.push({0, source});
    while (!queue.empty()) {
        auto [d, v] = queue.top();
        queue.pop();
        if (d > dist[v])
            continue;
        for (const Edge &e : g[v]) {
            std::uint64_t nd = d + e.weight;
            if (nd < dist[e.to]) {
                dist[e.to] = nd;
                queue.push({nd, e.to});
            }
        }
    }
    return dist;
}

int main() {
    Graph g = build_graph(NODES, DEGREE);
    std::unordered_map<std::uint32_t, std::uint64_t> reached_sum;
    std::vector<std::uint64_t> last;
    for (std::uint32_t s = 0; s < SOURCES; s++) {
        std::uint32_t source = s * (NODES / SOURCES);
        last = dijkstra(g, source);
        std::uint64_t sum = 0;
        for (std::uint64_t d : last)
            if (d != UINT64_MAX)
                sum += d;
        reached_sum[source] = sum;
    }
    std::uint64_t total = 0;
    for (const auto &[source, sum] : reached_sum)
        total += sum;
    std::size_t unreachable = std::count(last.begin(), last.end(), UINT64_MAX);
    std::sort(last.begin(), last.end(), std::greater<std::uint64_t>());
    std::printf("sum %llu unreachable %zu top %llu %llu %llu\n", (unsigned long long)total,
                unreachable, (unsigned long long)last[0], (unsigned long long)last[1],
                (unsigned long long)last[2]);
    return 0;
}
