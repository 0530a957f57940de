#include "core/rig/joint_names.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>

namespace rig {

std::vector<std::string> jointNameWords(const std::string& name)
{
    const auto colon = name.find_last_of(':');
    const std::string s = name.substr(colon == std::string::npos ? 0 : colon + 1);
    std::vector<std::string> out;
    std::string cur;
    auto flush = [&] {
        if (!cur.empty())
            out.push_back(cur);
        cur.clear();
    };
    for (size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (!std::isalnum(c)) {
            flush();
            continue;
        }
        if (!cur.empty()) {
            const auto prev = static_cast<unsigned char>(s[i - 1]);
            const bool next = i + 1 < s.size() && std::islower(static_cast<unsigned char>(s[i + 1]));
            if (std::isupper(c) && (std::islower(prev) || std::isdigit(prev) || (std::isupper(prev) && next)))
                flush();
            else if (std::isdigit(c) != std::isdigit(prev))
                flush();
        }
        cur += static_cast<char>(std::tolower(c));
    }
    flush();
    return out;
}

JointNameRole jointNameRole(const std::string& name)
{
    JointNameRole r;
    for (std::string w : jointNameWords(name)) {
        if (std::isdigit(static_cast<unsigned char>(w[0])) || w == "mixamorig" || w == "bip" || w == "def")
            continue;
        if (w == "l" || w == "left") {
            r.side = JointSide::Left;
            continue;
        }
        if (w == "r" || w == "right") {
            r.side = JointSide::Right;
            continue;
        }
        // All-lower-case compounds: "leftupleg", "rightarm".
        for (auto [prefix, side] : {std::pair{"left", JointSide::Left}, std::pair{"right", JointSide::Right}})
            if (w.size() > std::string_view(prefix).size() && w.rfind(prefix, 0) == 0) {
                r.side = side;
                w = w.substr(std::string_view(prefix).size());
            }
        r.key += w;
    }
    static const std::vector<std::pair<std::string, JointPart>> table = {
        {"hips", JointPart::Hips},       {"pelvis", JointPart::Hips},       {"upleg", JointPart::Thigh},
        {"upperleg", JointPart::Thigh},  {"thigh", JointPart::Thigh},       {"femur", JointPart::Thigh},
        {"leg", JointPart::Shin},        {"lowerleg", JointPart::Shin},     {"knee", JointPart::Shin},
        {"calf", JointPart::Shin},       {"shin", JointPart::Shin},         {"foot", JointPart::Foot},
        {"ankle", JointPart::Foot},      {"toebase", JointPart::Toe},       {"toe", JointPart::Toe},
        {"toes", JointPart::Toe},        {"ball", JointPart::Toe},          {"collar", JointPart::Clavicle},
        {"clavicle", JointPart::Clavicle}, {"shoulder", JointPart::Clavicle}, {"arm", JointPart::UpperArm},
        {"upperarm", JointPart::UpperArm}, {"humerus", JointPart::UpperArm}, {"forearm", JointPart::ForeArm},
        {"lowerarm", JointPart::ForeArm}, {"elbow", JointPart::ForeArm},    {"hand", JointPart::Hand},
        {"wrist", JointPart::Hand},      {"neck", JointPart::Neck},         {"head", JointPart::Head},
    };
    if (r.key == "hip")
        r.part = r.side == JointSide::None ? JointPart::Hips : JointPart::Thigh; // Biovision "LeftHip" is the thigh
    for (const auto& [k, p] : table)
        if (r.key == k)
            r.part = p;
    return r;
}

std::vector<JointNameRole> jointNameRoles(const std::vector<std::string>& names)
{
    std::vector<JointNameRole> roles;
    roles.reserve(names.size());
    for (const auto& n : names)
        roles.push_back(jointNameRole(n));
    for (JointSide side : {JointSide::Left, JointSide::Right}) {
        const bool collar = std::any_of(roles.begin(), roles.end(), [&](const JointNameRole& r) {
            return r.side == side && (r.key == "collar" || r.key == "clavicle");
        });
        if (collar)
            for (auto& r : roles)
                if (r.side == side && r.key == "shoulder")
                    r.part = JointPart::UpperArm;
    }
    return roles;
}

bool sameJointRole(const JointNameRole& a, const JointNameRole& b) { return a.part != JointPart::None && a.part == b.part && a.side == b.side; }

} // namespace rig
