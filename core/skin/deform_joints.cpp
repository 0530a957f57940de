#include "core/skin/deform_joints.h"

#include "core/common/error.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace rig {
namespace {

/// Lower-case words of a name (split at non-letters and camelCase).
std::vector<std::string> words(const std::string& name)
{
    std::vector<std::string> out;
    std::string cur;
    for (size_t i = 0; i < name.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(name[i]);
        const bool boundary = !std::isalpha(c) || (std::isupper(c) && i > 0 && std::islower(static_cast<unsigned char>(name[i - 1])));
        if (boundary && !cur.empty()) {
            out.push_back(cur);
            cur.clear();
        }
        if (std::isalpha(c))
            cur += static_cast<char>(std::tolower(c));
    }
    if (!cur.empty())
        out.push_back(cur);
    return out;
}

bool helperName(const std::string& name)
{
    static const std::set<std::string> marks = {"ik", "pole", "target", "goal", "tag", "weapon", "prop",
                                                "attach", "socket", "end", "nub", "null", "dummy", "helper"};
    for (const std::string& w : words(name))
        if (marks.count(w))
            return true;
    return false;
}

} // namespace

std::vector<bool> deformJoints(const std::string& spec, const Skeleton& s,
                               const Eigen::SparseMatrix<double, Eigen::RowMajor>* fileWeights)
{
    const std::string fn = "rig::deformJoints(): ";
    const size_t n = static_cast<size_t>(s.jointCount());
    std::vector<bool> deform(n, false);
    if (spec == "all") {
        deform.assign(n, true);
    } else if (spec == "auto") {
        if (fileWeights && fileWeights->nonZeros() > 0 && fileWeights->cols() == static_cast<Eigen::Index>(n)) {
            for (Eigen::Index r = 0; r < fileWeights->outerSize(); ++r)
                for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(*fileWeights, r); it; ++it)
                    if (it.value() > 0.0)
                        deform[static_cast<size_t>(it.col())] = true;
        } else {
            for (size_t j = 0; j < n; ++j)
                deform[j] = !helperName(s.names[j]);
        }
    } else {
        size_t start = 0;
        while (start <= spec.size()) {
            const size_t comma = std::min(spec.find(',', start), spec.size());
            std::string name = spec.substr(start, comma - start);
            name.erase(0, name.find_first_not_of(' '));
            name.erase(name.find_last_not_of(' ') + 1);
            start = comma + 1;
            if (name.empty())
                continue;
            const auto j = s.find(name);
            if (!j)
                throw InvalidInput(fn + "the skeleton has no joint '" + name + "'");
            deform[static_cast<size_t>(*j)] = true;
        }
    }
    if (std::none_of(deform.begin(), deform.end(), [](bool b) { return b; }))
        throw InvalidInput(fn + "'" + spec + "' leaves no joint to deform the mesh; use auto, all or joint names");
    return deform;
}

SkinWeights restrictToDeformJoints(const SkinWeights& w, const Skeleton& s, const std::vector<bool>& deform)
{
    const std::string fn = "rig::restrictToDeformJoints(): ";
    const int nj = s.jointCount();
    if (static_cast<int>(deform.size()) != nj)
        throw InvalidInput(fn + "one flag per joint expected");
    const auto first = std::find(deform.begin(), deform.end(), true);
    if (first == deform.end())
        throw InvalidInput(fn + "no joint deforms");
    // Each joint's target: itself, or its nearest deforming ancestor (-1: none).
    std::vector<int> target(static_cast<size_t>(nj), -1);
    for (int j = 0; j < nj; ++j) {
        int k = j;
        while (k >= 0 && !deform[static_cast<size_t>(k)])
            k = s.parents[static_cast<size_t>(k)];
        target[static_cast<size_t>(j)] = k;
    }
    Eigen::SparseMatrix<double> W(w.vertexCount(), nj);
    std::vector<Eigen::Triplet<double>> entries;
    for (int i = 0; i < w.vertexCount(); ++i) {
        bool any = false;
        for (int k = 0; k < w.maxInfluences; ++k) {
            const double x = w.weights(i, k);
            const int t = x > 0.0 ? target[static_cast<size_t>(w.joints(i, k))] : -1;
            if (t >= 0) {
                entries.emplace_back(i, t, x);
                any = true;
            }
        }
        if (!any)
            entries.emplace_back(i, static_cast<int>(first - deform.begin()), 1.0);
    }
    W.setFromTriplets(entries.begin(), entries.end()); // duplicates are summed
    return skinWeightsFromSparse(W, w.maxInfluences);
}

} // namespace rig
