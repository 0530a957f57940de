// Up and facing detection in every axis-aligned frame (issue 48, item 4): each
// character is imported once, then turned in memory into each of the 24
// rotations that map coordinate axes to coordinate axes, and oriented as a file
// that does not say which way is up: once with `--up auto --facing auto` and
// once with the default rule (`--up file`, the shape where the file is silent).
// So detection, not the file, decides. Prints one CSV line per character and
// frame; bench/orientation_sweep.py turns it into the tables of bench/README.md.
//
// Usage: orientation_sweep [--frames all|identity] FILE...
// Columns: file, frame (0 = identity), then for auto and for the default rule:
// the file's axis the result puts up, its source and confidence, the file's axis
// the result faces (+Z after turning), its confidence; then the microseconds
// detectUp() and detectFront() took on the turned mesh (auto).
#include "core/mesh/orientation.h"
#include "core/project/character_orientation.h"
#include "core/project/character_source.h"

#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace {

/// The 24 rotations among the signed permutation matrices (determinant +1), identity first.
std::vector<Eigen::Matrix3d> axisRotations()
{
    std::vector<Eigen::Matrix3d> out{Eigen::Matrix3d::Identity()};
    const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (const auto& p : perms)
        for (int signs = 0; signs < 8; ++signs) {
            Eigen::Matrix3d R = Eigen::Matrix3d::Zero();
            for (int r = 0; r < 3; ++r)
                R(r, p[r]) = (signs >> r) & 1 ? -1.0 : 1.0;
            if (R.determinant() > 0 && !R.isIdentity())
                out.push_back(R);
        }
    return out;
}

double microseconds(std::chrono::steady_clock::time_point since)
{
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - since).count();
}

/// Orients a copy of `base` turned by `R` as a file without an up axis; the
/// file's axes that end up pointing up and forward (+Y, +Z of the result).
struct Oriented {
    std::string up, upSource, front;
    double upConfidence = 0.0, frontConfidence = 0.0;
};

Oriented orientTurned(const rig::LoadedCharacter& base, const Eigen::Matrix3d& R, const rig::OrientationOptions& o)
{
    rig::LoadedCharacter c;
    c.imported.mesh.V = base.imported.mesh.V * R.transpose();
    c.imported.mesh.F = base.imported.mesh.F;
    c.imported.info.upAxis = "+y";
    c.imported.info.upAxisGuessed = true;
    const rig::OrientationResult r = rig::orientCharacter(c, o);
    const Eigen::Matrix3d back = R.transpose() * r.rotation.transpose(); // oriented -> file
    Oriented out;
    out.up = rig::signedAxisName(back * rig::Vec3::UnitY());
    out.upSource = r.upSource;
    out.upConfidence = r.upConfidence;
    out.front = rig::signedAxisName(back * (r.facingSource == "detected" ? rig::Vec3::UnitZ() : r.front));
    out.frontConfidence = r.frontConfidence;
    return out;
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> files;
    bool allFrames = true;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--frames" && i + 1 < argc)
            allFrames = std::string(argv[++i]) != "identity";
        else
            files.push_back(a);
    }
    if (files.empty()) {
        std::fprintf(stderr, "usage: orientation_sweep [--frames all|identity] FILE...\n");
        return 2;
    }
    const std::vector<Eigen::Matrix3d> frames = allFrames ? axisRotations() : std::vector{Eigen::Matrix3d::Identity().eval()};
    std::printf("file,frame,auto_up,auto_up_source,auto_up_conf,auto_front,auto_front_conf,"
                "default_up,default_up_source,default_up_conf,default_front,default_front_conf,up_us,front_us,vertices\n");
    for (const std::string& file : files) {
        rig::LoadedCharacter c;
        try {
            c = rig::loadCharacter(file);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s: %s\n", file.c_str(), e.what());
            continue;
        }
        for (size_t k = 0; k < frames.size(); ++k) {
            const Oriented a = orientTurned(c, frames[k], {.up = "auto", .facing = "auto"});
            const Oriented d = orientTurned(c, frames[k], {});
            rig::Mesh turned;
            turned.V = c.imported.mesh.V * frames[k].transpose();
            turned.F = c.imported.mesh.F;
            auto t0 = std::chrono::steady_clock::now();
            const rig::UpGuess up = rig::detectUp(turned);
            const double upUs = microseconds(t0);
            t0 = std::chrono::steady_clock::now();
            (void)rig::detectFront(turned, up.up);
            const double frontUs = microseconds(t0);
            std::printf("%s,%zu,%s,%s,%.4f,%s,%.4f,%s,%s,%.4f,%s,%.4f,%.1f,%.1f,%ld\n", file.c_str(), k, a.up.c_str(),
                        a.upSource.c_str(), a.upConfidence, a.front.c_str(), a.frontConfidence, d.up.c_str(),
                        d.upSource.c_str(), d.upConfidence, d.front.c_str(), d.frontConfidence, upUs, frontUs,
                        static_cast<long>(c.imported.mesh.V.rows()));
        }
        std::fflush(stdout);
    }
    return 0;
}
