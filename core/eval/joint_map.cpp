#include "core/eval/joint_map.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <initializer_list>
#include <set>

namespace rig {
namespace {

using CJ = CanonicalJoint;

enum Side { None = 0, Left = 1, Right = 2 };

/// Words that make a joint a helper, never a canonical candidate.
const std::set<std::string> helperWords = {
    "twist", "roll", "ik", "fk", "pole", "tag", "end", "nub", "site", "top", "tip", "target", "goal",
    "helper", "socket", "attach", "attachment", "weapon", "prop", "org", "mch", "null", "dummy",
    "effector", "ctrl", "ctl", "control", "wgt", "vis", "lookat", "eye", "jaw", "hair", "index",
    "middle", "ring", "pinky", "thumb", "finger", "fingers", "toe", "toes", "palm", "ball", "mid",
};

/// Words dropped before the part is read (prefixes and filler of naming schemes).
const std::set<std::string> fillerWords = {"bip", "biped", "def", "skeleton", "joint", "jnt", "bn", "bone",
                                           "j", "mixamorig", "deform", "b", "bp", "character", "armature"};

struct JointWords {
    Side side = None;
    std::string part; ///< The remaining words joined ("upperarm", "forearm", "leg").
    bool helper = false;
};

JointWords classify(std::string_view name)
{
    JointWords w;
    for (const std::string& word : jointNameWords(name)) {
        if (word == "l" || word == "left")
            w.side = Left;
        else if (word == "r" || word == "right")
            w.side = Right;
        else if (helperWords.count(word))
            w.helper = true;
        else if (!fillerWords.count(word) && !std::isdigit(static_cast<unsigned char>(word[0])))
            w.part += word;
    }
    return w;
}

class Mapper {
public:
    Mapper(const Skeleton& s, const Vec3& up) : m_s(s), m_up(up.normalized()), m_children(childrenOf(s))
    {
        const int n = s.jointCount();
        m_words.reserve(static_cast<size_t>(n));
        m_depth.assign(static_cast<size_t>(n), 0);
        m_subtree.assign(static_cast<size_t>(n), 1);
        for (int j = 0; j < n; ++j) {
            m_words.push_back(classify(s.names[static_cast<size_t>(j)]));
            const int p = s.parents[static_cast<size_t>(j)];
            if (p >= 0)
                m_depth[static_cast<size_t>(j)] = m_depth[static_cast<size_t>(p)] + 1;
        }
        for (int j = n - 1; j > 0; --j)
            if (const int p = s.parents[static_cast<size_t>(j)]; p >= 0)
                m_subtree[static_cast<size_t>(p)] += m_subtree[static_cast<size_t>(j)];
    }

    CanonicalJointMap run()
    {
        for (Side side : {Left, Right}) {
            mapLeg(side);
            mapArm(side);
        }
        mapTrunk();
        m_map.convention = convention();
        return m_map;
    }

private:
    const Skeleton& m_s;
    Vec3 m_up;
    std::vector<std::vector<int>> m_children;
    std::vector<JointWords> m_words;
    std::vector<int> m_depth;
    std::vector<int> m_subtree;
    CanonicalJointMap m_map;

    void set(CJ c, int j, std::string how)
    {
        if (j < 0)
            return;
        m_map.joints[static_cast<size_t>(c)] = j;
        m_map.how[static_cast<size_t>(c)] = std::move(how);
    }
    int get(CJ c) const { return m_map[c]; }

    bool isAncestor(int a, int j) const
    {
        for (int k = j; k >= 0; k = m_s.parents[static_cast<size_t>(k)])
            if (k == a)
                return true;
        return false;
    }

    int commonAncestor(int a, int b) const
    {
        for (int k = a; k >= 0; k = m_s.parents[static_cast<size_t>(k)])
            if (isAncestor(k, b))
                return k;
        return -1;
    }

    /// The candidate with one of `parts` on `side` nearest the root (below
    /// `under` when >= 0, `under` itself excluded); -1 when none.
    int first(Side side, std::initializer_list<const char*> parts, int under = -1) const
    {
        int best = -1;
        for (int j = 0; j < m_s.jointCount(); ++j) {
            const JointWords& w = m_words[static_cast<size_t>(j)];
            if (w.helper || w.side != side || (under >= 0 && (j == under || !isAncestor(under, j))))
                continue;
            if (std::none_of(parts.begin(), parts.end(), [&](const char* p) { return w.part == p; }))
                continue;
            if (best < 0 || m_depth[static_cast<size_t>(j)] < m_depth[static_cast<size_t>(best)])
                best = j;
        }
        return best;
    }

    /// The joint nearest the root with a child named for a feature of the
    /// face (jaw, eye, lip, brow, ...); -1 when none.
    int skull() const
    {
        static const std::set<std::string> face = {"eye",  "eyes",  "eyeball", "brow",  "eyebrow", "lid",
                                                   "eyelid", "lip", "lips",   "jaw",   "cheek",   "mouth",
                                                   "tongue", "teeth", "tooth", "nose",  "chin"};
        int best = -1;
        for (int j = 0; j < m_s.jointCount(); ++j)
            for (const int c : m_children[static_cast<size_t>(j)]) {
                const auto words = jointNameWords(m_s.names[static_cast<size_t>(c)]);
                if (std::any_of(words.begin(), words.end(), [&](const std::string& w) { return face.count(w) > 0; }) &&
                    (best < 0 || m_depth[static_cast<size_t>(j)] < m_depth[static_cast<size_t>(best)]))
                    best = j;
            }
        return best;
    }

    /// The chain from `root`: each step the child with the largest subtree.
    std::vector<int> chainFrom(int root) const
    {
        std::vector<int> chain{root};
        for (int j = root; !m_children[static_cast<size_t>(j)].empty();) {
            const auto& c = m_children[static_cast<size_t>(j)];
            j = *std::max_element(c.begin(), c.end(), [&](int a, int b) {
                return m_subtree[static_cast<size_t>(a)] < m_subtree[static_cast<size_t>(b)];
            });
            chain.push_back(j);
        }
        return chain;
    }

    Vec3 pos(int j) const { return m_s.bindPositions.row(j).transpose(); }

    /// The joint of `chain` strictly between positions `a` and `b` nearest half
    /// the arc length from chain[a] to chain[b]; -1 when there is none.
    int midJoint(const std::vector<int>& chain, size_t a, size_t b) const
    {
        if (b <= a + 1)
            return -1;
        std::vector<double> arc{0.0};
        for (size_t k = a + 1; k <= b; ++k)
            arc.push_back(arc.back() + (pos(chain[k]) - pos(chain[k - 1])).norm());
        const double half = 0.5 * arc.back();
        int best = -1;
        double bestD = 0.0;
        for (size_t k = a + 1; k < b; ++k) {
            const double d = std::abs(arc[k - a] - half);
            if (best < 0 || d < bestD) {
                best = chain[k];
                bestD = d;
            }
        }
        return best;
    }

    static size_t indexIn(const std::vector<int>& chain, int j)
    {
        return static_cast<size_t>(std::find(chain.begin(), chain.end(), j) - chain.begin());
    }

    void mapLeg(Side side)
    {
        const CJ hipC = side == Left ? CJ::LeftHip : CJ::RightHip;
        const CJ kneeC = side == Left ? CJ::LeftKnee : CJ::RightKnee;
        const CJ ankleC = side == Left ? CJ::LeftAnkle : CJ::RightAnkle;
        int hip = first(side, {"upleg", "thigh", "upperleg", "femur", "uprleg"});
        if (hip < 0) // CMU's "LHipJoint" sits above "LeftUpLeg": a hip name only where no thigh name is
            hip = first(side, {"hip"});
        std::string hipHow = "name";
        if (hip < 0) { // "leg" with no upper leg above it is the limb root (leg_joint_L_1)
            hip = first(side, {"leg"});
            hipHow = "hierarchy: the side's 'leg' joint nearest the root";
        }
        if (hip < 0)
            return;
        set(hipC, hip, hipHow);
        const int knee = first(side, {"leg", "shin", "calf", "lowerleg", "knee", "lowleg", "crus"}, hip);
        set(kneeC, knee, "name");
        const int ankle = first(side, {"foot", "ankle"}, knee >= 0 ? knee : hip);
        set(ankleC, ankle, "name");
        const std::vector<int> chain = chainFrom(hip);
        if (get(ankleC) < 0) {
            // The foot starts at the first joint below the knee from which the
            // rest of the chain runs further forward than down. (A test on the
            // next bone alone, with the chain's end as the fallback, took Cesium
            // Man's ball of the foot, leg_joint_L_5, for the ankle: its
            // ankle-to-ball bone drops 6.5 cm and runs 3.1 cm forward; the
            // devset's own map has leg_joint_L_3.)
            const size_t from = knee >= 0 && indexIn(chain, knee) < chain.size() ? indexIn(chain, knee) + 1 : 2;
            int found = -1;
            for (size_t k = from; k + 1 < chain.size() && found < 0; ++k) {
                const Vec3 d = pos(chain.back()) - pos(chain[k]);
                const double down = std::abs(d.dot(m_up)), forward = (d - d.dot(m_up) * m_up).norm();
                if (forward > down)
                    found = chain[k];
            }
            // None: the chain ends in the foot's tip or ball (Cesium Man's ends
            // at leg_joint_L_5, the ball, under the ankle leg_joint_L_3), or at
            // the ankle itself when hip, knee and ankle are all it has.
            if (found < 0 && chain.size() >= 3)
                found = chain.size() >= 4 ? chain[chain.size() - 2] : chain.back();
            set(ankleC, found, "hierarchy: where the leg's chain turns forward");
        }
        if (get(kneeC) < 0 && get(ankleC) >= 0) {
            const size_t a = indexIn(chain, get(ankleC));
            if (a < chain.size())
                set(kneeC, midJoint(chain, 0, a), "hierarchy: half way from hip to ankle");
        }
    }

    void mapArm(Side side)
    {
        const CJ shoulderC = side == Left ? CJ::LeftShoulder : CJ::RightShoulder;
        const CJ elbowC = side == Left ? CJ::LeftElbow : CJ::RightElbow;
        const CJ wristC = side == Left ? CJ::LeftWrist : CJ::RightWrist;
        const int shoulder = first(side, {"upperarm", "uparm", "arm", "humerus", "upperarmm"});
        if (shoulder < 0)
            return;
        set(shoulderC, shoulder, "name");
        const int elbow = first(side, {"forearm", "lowerarm", "elbow", "lowarm"}, shoulder);
        set(elbowC, elbow, "name");
        set(wristC, first(side, {"hand", "wrist"}, elbow >= 0 ? elbow : shoulder), "name");
        const std::vector<int> chain = chainFrom(shoulder);
        if (get(wristC) < 0) { // the last chain joint before the fingers branch, or the chain's end
            int found = -1;
            for (size_t k = 1; k < chain.size() && found < 0; ++k)
                if (m_children[static_cast<size_t>(chain[k])].size() >= 2 || k + 1 == chain.size())
                    found = chain[k];
            if (found >= 0 && (elbow < 0 || isAncestor(elbow, found)) && found != elbow)
                set(wristC, found, "hierarchy: the arm's chain before it branches or ends");
        }
        if (get(elbowC) < 0 && get(wristC) >= 0) {
            const size_t w = indexIn(chain, get(wristC));
            if (w < chain.size())
                set(elbowC, midJoint(chain, 0, w), "hierarchy: half way from shoulder to wrist");
        }
    }

    void mapTrunk()
    {
        int hips = first(None, {"hips", "pelvis", "hip"});
        if (hips < 0)
            hips = first(None, {"waist"});
        if (hips >= 0)
            set(CJ::Hips, hips, "name");
        else if (get(CJ::LeftHip) >= 0 && get(CJ::RightHip) >= 0)
            set(CJ::Hips, commonAncestor(get(CJ::LeftHip), get(CJ::RightHip)),
                "hierarchy: common ancestor of the upper legs");

        int neck = first(None, {"neck"});
        int head = first(None, {"head"});
        std::string headHow = "name";
        // Unnamed, the head is the skull: the joint the face hangs from, even
        // where its name says neck (BCN_Epileptic's face bones hang from
        // 'B_Neck', its neck is 'B_Root_Neck_T'; the chain rule below took
        // the first ponytail joint for the head).
        if (const int face = skull(); head < 0 && face >= 0) {
            head = face;
            headHow = "hierarchy: the joint the face (jaw, eyes, lips) hangs from";
            if (neck == face || (neck >= 0 && !isAncestor(neck, face)))
                neck = -1;
        }
        if (get(CJ::LeftShoulder) >= 0 && get(CJ::RightShoulder) >= 0) {
            int top = commonAncestor(get(CJ::LeftShoulder), get(CJ::RightShoulder));
            std::string how = "hierarchy: common ancestor of the upper arms";
            if (top >= 0 && (top == neck || m_words[static_cast<size_t>(top)].part == "neck")) {
                top = m_s.parents[static_cast<size_t>(top)];
                how += " (its parent: the clavicles hang from the neck)";
            }
            set(CJ::SpineTop, top, how);
        }
        const int top = get(CJ::SpineTop);
        if (neck >= 0)
            set(CJ::Neck, neck, "name");
        if (head >= 0)
            set(CJ::Head, head, headHow);
        if (top < 0 || (neck >= 0 && head >= 0))
            return;
        // The spine top's child that leads to neither arm: the neck chain.
        int up = -1;
        double best = -1e300;
        for (int c : m_children[static_cast<size_t>(top)]) {
            if (isAncestor(c, get(CJ::LeftShoulder)) || isAncestor(c, get(CJ::RightShoulder)))
                continue;
            if (head >= 0 && !isAncestor(c, head))
                continue;
            const double h = pos(c).dot(m_up) + 1e-9 * m_subtree[static_cast<size_t>(c)];
            if (h > best) {
                best = h;
                up = c;
            }
        }
        if (up < 0)
            return;
        if (head >= 0) { // the head by name, the neck the joint between it and the spine top
            if (up != head && neck < 0)
                set(CJ::Neck, up, "hierarchy: between the spine top and the head");
            return;
        }
        const std::vector<int> chain = chainFrom(up);
        if (chain.size() >= 2 && neck < 0) {
            set(CJ::Neck, chain[0], "hierarchy: first joint above the spine top");
            set(CJ::Head, chain[1], "hierarchy: second joint above the spine top");
        } else if (neck >= 0 && isAncestor(neck, chain.back()) && chain.size() >= 2) {
            const size_t k = indexIn(chain, neck);
            if (k + 1 < chain.size())
                set(CJ::Head, chain[k + 1], "hierarchy: the joint above the neck");
        } else if (neck < 0) {
            set(CJ::Head, chain[0], "hierarchy: the only joint above the spine top");
        }
    }

    std::string convention() const
    {
        bool any = false;
        for (const std::string& n : m_s.names) {
            std::string lower(n);
            for (char& c : lower)
                c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            if (lower.find("mixamorig") != std::string::npos)
                return "mixamo";
            if (lower.rfind("bip0", 0) == 0)
                return "bip01";
            if (lower.rfind("def-", 0) == 0 || lower.rfind("org-", 0) == 0)
                return "rigify";
        }
        for (const auto& w : m_words)
            any |= w.side != None;
        const auto has = [&](const char* part) {
            return std::any_of(m_words.begin(), m_words.end(), [&](const JointWords& w) { return w.part == part; });
        };
        if (has("upperarm") && has("calf") && has("pelvis"))
            return "unreal";
        if (has("upleg") && has("forearm"))
            return "motionbuilder";
        if (has("thigh") && has("shin"))
            return "blender";
        return any ? "names" : "hierarchy";
    }
};

} // namespace

std::string_view canonicalJointKey(CanonicalJoint joint)
{
    switch (joint) {
    case CJ::Hips: return "hips";
    case CJ::SpineTop: return "spine_top";
    case CJ::Neck: return "neck";
    case CJ::Head: return "head";
    case CJ::LeftShoulder: return "l_shoulder";
    case CJ::LeftElbow: return "l_elbow";
    case CJ::LeftWrist: return "l_wrist";
    case CJ::RightShoulder: return "r_shoulder";
    case CJ::RightElbow: return "r_elbow";
    case CJ::RightWrist: return "r_wrist";
    case CJ::LeftHip: return "l_hip";
    case CJ::LeftKnee: return "l_knee";
    case CJ::LeftAnkle: return "l_ankle";
    case CJ::RightHip: return "r_hip";
    case CJ::RightKnee: return "r_knee";
    case CJ::RightAnkle: return "r_ankle";
    }
    return "?";
}

std::vector<CanonicalJoint> CanonicalJointMap::unmapped() const
{
    std::vector<CanonicalJoint> out;
    for (int c = 0; c < canonicalJointCount; ++c)
        if (joints[static_cast<size_t>(c)] < 0)
            out.push_back(static_cast<CanonicalJoint>(c));
    return out;
}

std::vector<std::string> jointNameWords(std::string_view name)
{
    if (const auto colon = name.rfind(':'); colon != std::string_view::npos)
        name = name.substr(colon + 1);
    std::vector<std::string> words;
    std::string cur;
    const auto flush = [&] {
        if (!cur.empty())
            words.push_back(cur);
        cur.clear();
    };
    const auto isUpper = [](char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; };
    const auto isLower = [](char c) { return std::islower(static_cast<unsigned char>(c)) != 0; };
    const auto isDigit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
    for (size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (!std::isalnum(static_cast<unsigned char>(c))) {
            flush();
            continue;
        }
        if (!cur.empty()) {
            const char prev = name[i - 1];
            const bool camel = isUpper(c) && isLower(prev);
            const bool acronymEnd = isUpper(c) && isUpper(prev) && i + 1 < name.size() && isLower(name[i + 1]);
            const bool digitEdge = isDigit(c) != isDigit(prev);
            if (camel || acronymEnd || digitEdge)
                flush();
        }
        cur += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    flush();
    return words;
}

CanonicalJointMap mapCanonicalJoints(const Skeleton& skeleton, const Vec3& up)
{
    return Mapper(skeleton, up).run();
}

namespace {

/// The side and finger a joint name gives, and whether it is Mixamo's 4th (tip) joint.
struct FingerWords {
    Side side = None;
    int finger = -1;
    bool helper = false;
    bool fourth = false;
};

FingerWords fingerWords(std::string_view name)
{
    static const std::set<std::string> helpers = {"twist", "roll", "ik", "fk", "pole", "end", "nub", "site", "tip",
                                                  "target", "helper", "ctrl", "ctl", "control", "mch", "org", "palm",
                                                  "meta", "metacarpal", "wgt", "vis"};
    static const std::vector<std::pair<std::string, int>> fingers = {
        {"thumb", 0}, {"index", 1}, {"pointer", 1}, {"middle", 2}, {"ring", 3}, {"pinky", 4}, {"pinkie", 4}, {"little", 4}};
    FingerWords w;
    const std::vector<std::string> words = jointNameWords(name);
    for (size_t k = 0; k < words.size(); ++k) {
        const std::string& word = words[k];
        if (word == "l" || word == "left")
            w.side = Left;
        else if (word == "r" || word == "right")
            w.side = Right;
        else if (helpers.count(word))
            w.helper = true;
        for (const auto& [key, f] : fingers)
            if (word == key && w.finger < 0) {
                w.finger = f;
                w.fourth = k + 1 < words.size() && words[k + 1] == "4";
            }
        if (word == "finger" && w.finger < 0 && k + 1 < words.size() && words[k + 1][0] >= '0' && words[k + 1][0] <= '4')
            w.finger = words[k + 1][0] - '0';
    }
    return w;
}

} // namespace

std::string_view fingerKey(int finger)
{
    static constexpr std::array<std::string_view, 5> keys = {"thumb", "index", "middle", "ring", "pinky"};
    return keys.at(static_cast<size_t>(finger));
}

int FingerJointMap::fingers(int side) const
{
    const auto& hand = chains.at(static_cast<size_t>(side));
    return static_cast<int>(std::count_if(hand.begin(), hand.end(), [](const auto& c) { return !c.empty(); }));
}

int FingerJointMap::tipJoint(int side, int finger) const
{
    const auto& c = chains.at(static_cast<size_t>(side)).at(static_cast<size_t>(finger));
    return c.empty() ? -1 : c.back();
}

FingerJointMap mapFingerJoints(const Skeleton& skeleton)
{
    FingerJointMap map;
    std::vector<int> depth(static_cast<size_t>(skeleton.jointCount()), 0);
    for (int j = 1; j < skeleton.jointCount(); ++j)
        depth[static_cast<size_t>(j)] = depth[static_cast<size_t>(skeleton.parents[static_cast<size_t>(j)])] + 1;
    for (int j = 0; j < skeleton.jointCount(); ++j) {
        const FingerWords w = fingerWords(skeleton.names[static_cast<size_t>(j)]);
        if (w.side == None || w.finger < 0 || w.helper || w.fourth)
            continue;
        map.chains[w.side == Left ? 0 : 1][static_cast<size_t>(w.finger)].push_back(j);
    }
    for (auto& hand : map.chains)
        for (auto& chain : hand)
            std::stable_sort(chain.begin(), chain.end(),
                             [&](int a, int b) { return depth[static_cast<size_t>(a)] < depth[static_cast<size_t>(b)]; });
    return map;
}

} // namespace rig
