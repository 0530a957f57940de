#include "core/motion/clip_file.h"

#include "core/common/error.h"
#include "core/import/guarded_import.h"
#include "core/motion/bvh_file.h"

#include <Eigen/SVD>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <numbers>
#include <set>

namespace rig {
namespace {

/// The rotation nearest the 3x3 part of a transform (scale and shear dropped).
Eigen::Matrix3d rotationOf(const Eigen::Matrix4d& g)
{
    const Eigen::JacobiSVD<Eigen::Matrix3d> svd(g.topLeftCorner<3, 3>(), Eigen::ComputeFullU | Eigen::ComputeFullV);
    Eigen::Matrix3d d = Eigen::Matrix3d::Identity();
    d(2, 2) = (svd.matrixU() * svd.matrixV().transpose()).determinant() < 0.0 ? -1.0 : 1.0;
    return svd.matrixU() * d * svd.matrixV().transpose();
}

/// A name a BVH joint can hold (no braces, line breaks or surrounding blanks), unique in `taken`.
std::string cleanName(std::string name, std::set<std::string>& taken)
{
    for (char& c : name)
        if (c == '{' || c == '}' || c == '\r' || c == '\n')
            c = '_';
    while (!name.empty() && std::isspace(static_cast<unsigned char>(name.front())))
        name.erase(name.begin());
    while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back())))
        name.pop_back();
    if (name.empty())
        name = "joint";
    std::string unique = name;
    for (int k = 2; taken.count(unique); ++k)
        unique = name + "_" + std::to_string(k);
    taken.insert(unique);
    return unique;
}

/// World rotations and positions of one pose (#J file joints), with the added root first when `extraRoot`.
struct WorldPose {
    std::vector<Eigen::Matrix3d> R;
    std::vector<Vec3> x;
};

WorldPose worldPose(const std::vector<Eigen::Matrix4d>& g, bool extraRoot)
{
    WorldPose w;
    if (extraRoot) {
        w.R.push_back(Eigen::Matrix3d::Identity());
        w.x.push_back(Vec3::Zero());
    }
    for (const Eigen::Matrix4d& m : g) {
        w.R.push_back(rotationOf(m));
        w.x.push_back(m.block<3, 1>(0, 3));
    }
    return w;
}

/// Channel values (X Y Z position, Z Y X rotation per joint) of a world pose.
void poseValues(const Motion& m, const WorldPose& w, double* out)
{
    for (int j = 0; j < m.jointCount(); ++j) {
        const int p = m.parents[static_cast<size_t>(j)];
        const Eigen::Matrix3d Rp = p < 0 ? Eigen::Matrix3d::Identity() : w.R[static_cast<size_t>(p)];
        const Vec3 xp = p < 0 ? Vec3::Zero() : w.x[static_cast<size_t>(p)];
        const Vec3 t = Rp.transpose() * (w.x[static_cast<size_t>(j)] - xp) - m.offsets.row(j).transpose();
        const Vec3 e = (Rp.transpose() * w.R[static_cast<size_t>(j)]).eulerAngles(2, 1, 0) * (180.0 / std::numbers::pi);
        double* v = out + 6 * j;
        v[0] = t.x();
        v[1] = t.y();
        v[2] = t.z();
        v[3] = e[0];
        v[4] = e[1];
        v[5] = e[2];
    }
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

} // namespace

bool isBvhPath(const std::string& path) { return lower(std::filesystem::path(path).extension().string()) == ".bvh"; }

Motion motionFromAnimation(const ImportedSkeleton& s, int index, const std::string& stem)
{
    if (index < 0 || index >= static_cast<int>(s.animations.size()))
        throw InvalidInput("rig::motionFromAnimation(): no animation " + std::to_string(index) + " (the file has " +
                           std::to_string(s.animations.size()) + ")");
    const ImportedAnimation& a = s.animations[static_cast<size_t>(index)];
    if (a.frameCount() < 1)
        throw InvalidInput("rig::motionFromAnimation(): animation '" + a.name + "' has no frames");
    const int roots = static_cast<int>(std::count(s.parents.begin(), s.parents.end(), -1));
    const bool extraRoot = roots != 1 || s.parents.empty() || s.parents[0] != -1;
    const int shift = extraRoot ? 1 : 0;
    Motion m;
    std::set<std::string> taken;
    if (extraRoot) {
        m.names.push_back(cleanName(stem + "_root", taken));
        m.parents.push_back(-1);
    }
    for (size_t j = 0; j < s.names.size(); ++j) {
        m.names.push_back(cleanName(s.names[j], taken));
        m.parents.push_back(s.parents[j] < 0 ? (extraRoot ? 0 : -1) : s.parents[j] + shift);
    }
    const int n = m.jointCount();
    m.channelStarts.push_back(0);
    for (int j = 0; j < n; ++j) {
        for (Channel c : {Channel::Xposition, Channel::Yposition, Channel::Zposition, Channel::Zrotation,
                          Channel::Yrotation, Channel::Xrotation})
            m.channels.push_back(c);
        m.channelStarts.push_back(m.channelCount());
    }
    // OFFSETs: bind positions in the parent's bind frame.
    const WorldPose bind = worldPose(s.bindGlobal, extraRoot);
    m.offsets = MatrixX3d::Zero(n, 3);
    for (int j = 0; j < n; ++j) {
        const int p = m.parents[static_cast<size_t>(j)];
        const Vec3 local = p < 0 ? bind.x[static_cast<size_t>(j)]
                                 : Vec3(bind.R[static_cast<size_t>(p)].transpose() * (bind.x[static_cast<size_t>(j)] - bind.x[static_cast<size_t>(p)]));
        m.offsets.row(j) = local.transpose();
    }
    m.bindValues.assign(static_cast<size_t>(m.channelCount()), 0.0);
    poseValues(m, bind, m.bindValues.data());
    m.frames = MotionFrames::Zero(a.frameCount(), m.channelCount());
    for (int f = 0; f < a.frameCount(); ++f)
        poseValues(m, worldPose(a.global[static_cast<size_t>(f)], extraRoot), m.frames.row(f).data());
    m.frameTime = a.frameCount() >= 2 && a.times.back() > a.times.front()
                      ? (a.times.back() - a.times.front()) / (a.frameCount() - 1)
                      : 1.0 / 30.0;
    m.weighted.assign(static_cast<size_t>(n), false);
    for (int k = 0; k < s.W.outerSize(); ++k)
        for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(s.W, k); it; ++it)
            if (it.value() > 0.0 && it.col() + shift < n)
                m.weighted[static_cast<size_t>(it.col() + shift)] = true;
    if (s.W.nonZeros() == 0)
        m.weighted.clear(); // no mesh weights: unknown, not "nothing weighted"
    validateMotion(m);
    return m;
}

ClipFile readClipFile(const std::string& path, const std::string& animation, const Progress& progress)
{
    ClipFile out;
    if (isBvhPath(path)) {
        out.format = "bvh";
        out.motion = readBvh(path, {}, progress);
        return out;
    }
    out.format = lower(std::filesystem::path(path).extension().string());
    if (!out.format.empty() && out.format[0] == '.')
        out.format.erase(0, 1);
    const ImportedCharacter c = importCharacterGuarded(path, importDefaults(), guardedImportDefaults(), progress);
    if (!c.skeleton)
        throw InvalidInput("'" + path + "' has no skeleton, so it holds no motion to play: load a BVH file or a "
                           "rigged, animated file (FBX, glTF, DAE, .X, MD5, ...)");
    const ImportedSkeleton& s = *c.skeleton;
    for (const ImportedAnimation& a : s.animations)
        out.animations.push_back(a.name);
    if (s.animations.empty())
        throw InvalidInput("'" + path + "' has a skeleton (" + std::to_string(s.names.size()) +
                           " joints) but no animation that moves it: nothing to play");
    int index = 0;
    if (!animation.empty()) {
        const auto it = std::find(out.animations.begin(), out.animations.end(), animation);
        if (it == out.animations.end()) {
            std::string list;
            for (const std::string& a : out.animations)
                list += (list.empty() ? "'" : ", '") + a + "'";
            throw InvalidInput("'" + path + "' has no animation named '" + animation + "' (it has " + list + ")");
        }
        index = static_cast<int>(it - out.animations.begin());
    }
    out.animation = out.animations[static_cast<size_t>(index)];
    out.motion = motionFromAnimation(s, index, std::filesystem::path(path).stem().string());
    return out;
}

} // namespace rig
