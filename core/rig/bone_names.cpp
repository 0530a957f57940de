#include "core/rig/bone_names.h"

#include "core/common/error.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <set>
#include <string_view>

namespace rig {
namespace {

/// One body part: our name (without side), Unity's, the UE5 mannequin's, VRM's.
struct PartNames {
    std::string_view ours, unity, unreal, vrm;
};

constexpr std::array<PartNames, 13> kParts = {{
    {"Hips", "Hips", "pelvis", "hips"},
    {"Spine", "Spine", "spine_01", "spine"},
    {"Spine1", "Chest", "spine_02", "chest"},
    {"Neck", "Neck", "neck_01", "neck"},
    {"Head", "Head", "head", "head"},
    {"Shoulder", "Shoulder", "clavicle", "Shoulder"},
    {"Arm", "UpperArm", "upperarm", "UpperArm"},
    {"ForeArm", "LowerArm", "lowerarm", "LowerArm"},
    {"Hand", "Hand", "hand", "Hand"},
    {"UpLeg", "UpperLeg", "thigh", "UpperLeg"},
    {"Leg", "LowerLeg", "calf", "LowerLeg"},
    {"Foot", "Foot", "foot", "Foot"},
    {"ToeBase", "Toes", "ball", "Toes"},
}};

/// Our finger names ("Thumb" ... "Pinky") and Unity's and VRM's ("Little").
constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kFingers = {{
    {"Thumb", "Thumb"}, {"Index", "Index"}, {"Middle", "Middle"}, {"Ring", "Ring"}, {"Pinky", "Little"}}};

/// The presets with their titles, in the order a UI lists them.
constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kPresets = {{
    {"rigsmith", "Rigsmith (Mixamo's names without a namespace)"},
    {"mixamo", "Mixamo (mixamorig:)"},
    {"unity", "Unity Humanoid"},
    {"unreal", "Unreal Engine 5 mannequin"},
    {"vrm", "VRM 1.0 humanoid"},
}};

/// A joint name split as "Left" + "HandIndex" + "2".
struct Parsed {
    std::string_view side; ///< "Left", "Right" or "".
    std::string_view part; ///< A kParts name, or a finger name for a finger joint.
    int phalanx = 0;       ///< 1-3 for a finger joint, 0 otherwise.
};

std::optional<Parsed> parse(std::string_view name)
{
    Parsed p;
    for (std::string_view side : {"Left", "Right"})
        if (name.substr(0, side.size()) == side) {
            p.side = side;
            name.remove_prefix(side.size());
        }
    if (name.size() >= 6 && name.substr(0, 4) == "Hand" && name.back() >= '1' && name.back() <= '3') {
        for (const auto& finger : kFingers)
            if (name.substr(4, name.size() - 5) == finger.first) {
                p.part = finger.first;
                p.phalanx = name.back() - '0';
                return p.side.empty() ? std::nullopt : std::optional<Parsed>(p);
            }
    }
    for (const PartNames& part : kParts)
        if (name == part.ours) {
            p.part = part.ours;
            return p;
        }
    return std::nullopt;
}

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string fingerName(const std::string& preset, const Parsed& p)
{
    std::string_view other;
    for (const auto& finger : kFingers)
        if (finger.first == p.part)
            other = finger.second;
    static const std::array<std::string_view, 3> segments = {"Proximal", "Intermediate", "Distal"};
    static const std::array<std::string_view, 3> thumbVrm = {"Metacarpal", "Proximal", "Distal"};
    const auto k = static_cast<size_t>(p.phalanx - 1);
    if (preset == "unity")
        return std::string(p.side) + std::string(other) + std::string(segments[k]);
    if (preset == "vrm")
        return lower(p.side) + std::string(other) + std::string(p.part == "Thumb" ? thumbVrm[k] : segments[k]);
    return lower(p.part) + "_0" + std::to_string(p.phalanx) + (p.side == "Left" ? "_l" : "_r"); // unreal
}

std::string partName(const std::string& preset, const Parsed& p)
{
    for (const PartNames& part : kParts)
        if (part.ours == p.part) {
            if (preset == "unity")
                return std::string(p.side) + std::string(part.unity);
            if (preset == "vrm")
                return lower(p.side) + std::string(part.vrm);
            return std::string(part.unreal) + (p.side.empty() ? "" : p.side == "Left" ? "_l" : "_r");
        }
    return {};
}

} // namespace

const std::vector<std::string>& boneNamePresets()
{
    static const std::vector<std::string> ids = [] {
        std::vector<std::string> out;
        for (const auto& [id, title] : kPresets)
            out.emplace_back(id);
        return out;
    }();
    return ids;
}

std::string boneNamePresetTitle(const std::string& preset)
{
    validateBoneNamePreset(preset);
    for (const auto& [id, title] : kPresets)
        if (id == preset)
            return std::string(title);
    return preset;
}

void validateBoneNamePreset(const std::string& preset)
{
    const std::vector<std::string>& ids = boneNamePresets();
    if (std::find(ids.begin(), ids.end(), preset) != ids.end())
        return;
    std::string list;
    for (const std::string& id : ids)
        list += (list.empty() ? "" : ", ") + id;
    throw InvalidInput("bone names '" + preset + "' not known; use " + list);
}

std::string presetBoneName(const std::string& preset, const std::string& joint)
{
    validateBoneNamePreset(preset);
    if (preset == "rigsmith")
        return joint;
    if (preset == "mixamo")
        return "mixamorig:" + joint;
    const std::optional<Parsed> p = parse(joint);
    if (!p)
        return joint;
    const std::string name = p->phalanx > 0 ? fingerName(preset, *p) : partName(preset, *p);
    return name.empty() ? joint : name;
}

Skeleton withBoneNames(Skeleton skeleton, const std::string& preset)
{
    validateBoneNamePreset(preset);
    std::set<std::string> taken(skeleton.names.begin(), skeleton.names.end());
    for (std::string& name : skeleton.names) {
        const std::string renamed = presetBoneName(preset, name);
        if (renamed == name || taken.count(renamed))
            continue;
        taken.erase(name);
        taken.insert(renamed);
        name = renamed;
    }
    return skeleton;
}

} // namespace rig
