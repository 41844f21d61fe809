/* Level-synchronous breadth-first search (Rodinia bfs style) over a generated graph: NODES
 * nodes, each with DEGREE edges to pseudo-random nodes (fixed LCG seed, plus an edge to the
 * next node so the graph is connected). Each level expands the frontier in parallel, then
 * updates the masks in parallel. The result (levels) does not depend on the thread count: all
 * writers of cost[v] in one level write the same value.
 * Size: -DNODES=... (default 2048), -DDEGREE=... (default 6). Prints a checksum of levels. */
#include <stdio.h>
#include <stdlib.h>

#ifndef NODES
#define NODES 2048
#endif
#ifndef DEGREE
#define DEGREE 6
#endif

int main(void) {
  int *start = malloc(sizeof(int) * (NODES + 1));
  int *edges = malloc(sizeof(int) * NODES * DEGREE);
  char *mask = malloc(NODES), *updating = malloc(NODES), *visited = malloc(NODES);
  int *cost = malloc(sizeof(int) * NODES);
  unsigned long long s = 42;
  for (int v = 0; v < NODES; v++) {
    start[v] = v * DEGREE;
    edges[v * DEGREE] = (v + 1) % NODES;
    for (int e = 1; e < DEGREE; e++) {
      s = s * 6364136223846793005ULL + 1442695040888963407ULL;
      edges[v * DEGREE + e] = (int)((s >> 33) % NODES);
    }
    mask[v] = updating[v] = visited[v] = 0;
    cost[v] = -1;
  }
  start[NODES] = NODES * DEGREE;
  mask[0] = visited[0] = 1;
  cost[0] = 0;
  int more = 1, levels = 0;
  while (more) {
    more = 0;
    levels++;
#pragma omp parallel for schedule(static)
    for (int v = 0; v < NODES; v++) {
      if (mask[v]) {
        mask[v] = 0;
        for (int e = start[v]; e < start[v + 1]; e++) {
          int w = edges[e];
          if (!visited[w]) {
            cost[w] = cost[v] + 1;
            updating[w] = 1;
          }
        }
      }
    }
#pragma omp parallel for schedule(static) reduction(| : more)
    for (int v = 0; v < NODES; v++) {
      if (updating[v]) {
        mask[v] = visited[v] = 1;
        updating[v] = 0;
        more |= 1;
      }
    }
  }
  long long sum = 0;
  for (int v = 0; v < NODES; v++)
    sum += cost[v];
  printf("bfs nodes=%d degree=%d levels %d cost-sum %lld\n", NODES, DEGREE, levels, sum);
  free(start);
  free(edges);
  free(mask);
  free(updating);
  free(visited);
  free(cost);
  return 0;
}
