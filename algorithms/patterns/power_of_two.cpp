#include "algorithms/patterns/power_of_two.hpp"

namespace numacoll::algo {

int largest_power_of_two(int n) {
    int p = 1;
    while (p * 2 <= n) p *= 2;
    return p;
}

int log2_of_power_of_two(int p) {
    int steps = 0;
    while ((1 << steps) < p) ++steps;
    return steps;
}

ExcessFold fold_adjacent(int count) {
    ExcessFold fold;
    fold.power = largest_power_of_two(count);
    const int excess = count - fold.power;
    for (int i = 0; i < count; ++i) {
        if (i < 2 * excess && i % 2 == 0) fold.folds.emplace_back(i, i + 1);
        else fold.active.push_back(i);
    }
    return fold;
}

ExcessFold fold_upper(int count) {
    ExcessFold fold;
    fold.power = largest_power_of_two(count);
    for (int i = 0; i < fold.power; ++i) fold.active.push_back(i);
    for (int i = fold.power; i < count; ++i) fold.folds.emplace_back(i, i - fold.power);
    return fold;
}

}  // namespace numacoll::algo
