#include "reproduce/findings.hpp"

namespace numacoll::reproduce {

const char* to_string(Verdict verdict) {
    switch (verdict) {
        case Verdict::reproduced: return "reproduced";
        case Verdict::qualitative: return "reproduced qualitatively";
        case Verdict::not_reproduced: return "not reproduced";
        case Verdict::calibration_input: return "calibration input";
    }
    return "?";
}

const std::vector<Finding>& findings() {
    static const std::vector<Finding> all = [] {
        std::vector<Finding> list = hpdc13_findings();
        for (auto& finding : hierarchical_findings()) list.push_back(std::move(finding));
        for (auto& finding : nuioa_findings()) list.push_back(std::move(finding));
        return list;
    }();
    return all;
}

}  // namespace numacoll::reproduce
