#include "models/barrier/signal_terms.hpp"

namespace numacoll::models {

double barrier_signal_ns(const P2pTerms& terms, int concurrent, int into_one_reader) {
    return terms.network ? terms.copy_ns(0) : terms.signal_ns(concurrent, into_one_reader);
}

}  // namespace numacoll::models
