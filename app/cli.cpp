#include "app/cli.h"
#include "app/window_options.h"

#include "core/common/error.h"
#include "core/common/timing.h"
#include "core/eval/bar_experiment.h"
#include "core/eval/skinning_timing.h"
#include "core/project/character_source.h"
#include "core/import/animation_poses.h"
#include "core/export/rig_file.h"
#include "core/export/gltf_export.h"
#include "core/export/project_file.h"
#include "core/project/project_io.h"
#include "core/motion/bvh_file.h"
#include "core/motion/retarget.h"
#include "core/project/rig_project.h"
#include "core/skin/skinning.h"
#include "core/deform/deformers.h"
#include "core/eval/weight_compare.h"
#include "core/voxel/fill.h"
#include "core/voxel/voxelize.h"

#include <nlohmann/json.hpp>


#include <charconv>
#include <iomanip>
#include <cstdio>
#include <cerrno>
#include <cstring>
#include <unistd.h>
#include <tuple>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <optional>
#include <span>

#include "app/cli_common.h"

namespace rig::app {
namespace {

WindowCommand g_render = nullptr; // set in the window executable

const std::vector<std::string> commands = {"info", "render", "skeleton", "fit", "rig", "export", "retarget", "bench", "weights", "compare-weights", "evaluate"};

} // namespace

namespace {

/// Every "{name}" in `text` replaced by `value`.
std::string substitute(std::string text, const std::string& name, const std::string& value)
{
    for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + value.size()))
        text.replace(at, name.size(), value);
    return text;
}

/// One line per row of the method and deformer tables.
std::string methodList()
{
    // One column wide enough for the longest id of either table, and a space after it.
    size_t width = 0;
    for (const WeightMethod& m : weightMethods())
        width = std::max(width, m.id.size());
    for (const DeformerInfo& d : deformers())
        width = std::max(width, d.id.size());
    const int column = static_cast<int>(width) + 2;
    std::ostringstream s;
    s << "Weight methods (--method, --weights) and their parameters (--weight-params METHOD.KEY=VALUE):\n";
    for (const WeightMethod& m : weightMethods()) {
        s << "  " << std::left << std::setw(column) << m.id << m.title << " -- " << m.reference << '\n';
        std::string keys;
        for (const MethodParameter& p : m.parameters)
            keys += (keys.empty() ? "" : ", ") + p.key;
        if (!keys.empty())
            s << "  " << std::setw(column) << "" << "parameters: " << keys << '\n';
    }
    s << "Deformers (rigsmith bench skinning):\n";
    for (const DeformerInfo& d : deformers())
        s << "  " << std::left << std::setw(column) << d.id << d.title << " -- " << d.reference << '\n';
    return s.str();
}

/// The usage of the window and the commands on one file (info … evaluate FILE).
std::string usageSingleFile()
{
    return R"(Rigsmith: rig a character mesh.

Usage:
  rigsmith [FILE]                 open the app (on FILE, or empty with a hint: Open, drop, default character)
  rigsmith --screenshot SHOT.png [--size WxH] [--dock pipeline|rig|weights|pose|parts|paint] [--frame JOINT]
                     [--colour shaded|segments|weights] [FILE]
                                  open the app, wait for the stages, save the window as PNG, quit
                                  (--dock: that dock's tab in front; --frame: that joint selected
                                  and framed with the joints below it, as F does; --colour: the
                                  mesh colouring, as S cycles it: weights shows the --frame joint's;
                                  the window's options in any order, each once, also without --screenshot)
  rigsmith info FILE [--json]     mesh statistics: vertices, triangles, parts, watertight, size
  rigsmith render FILE --out shot.png [--size WxH] [--view front|side|top|three-quarter] [--wireframe]
                  [--skeleton] [--voxels] [--xray] [--clip T] [--resolution N]
                                  render the viewport to a PNG (needs a display: use xvfb-run);
                                  --skeleton/--voxels run the curve-skeleton stage and draw it,
                                  --xray makes the mesh see-through, --clip T cuts it at T in [0, 1]
  rigsmith skeleton FILE [--resolution N] [--json OUT.json]
                                  voxelize, thin and build the geometric skeleton (default n = 155):
                                  node counts by type, segments, loops, bridged gaps, stage timings
  rigsmith fit FILE --out rig.json [--ends auto | --ends head=ID,lhand=ID,rhand=ID,lfoot=ID,rfoot=ID]
               [--template humanoid21|humanoid51|FILE.bvh|FILE.json] [--fingers none|auto|shape|N|auto:N|shape:N]
               [--resolution N] [--facing +z|-z|+x|-x] [--force] [--strict]
                                  label the end nodes (auto: the head, hands and feet of the standing body
                                  found among the skeleton's ends, left = up x facing, +X for the default
                                  +Z), fit the template skeleton and write the rig file; warnings (a fit no
                                  body has, a body chosen with little confidence) go to stderr and the
                                  report; --strict (fit, rig) then exits 3; --force rigs what does not look
                                  like a humanoid;
                                  --fingers (fit, weights, rig, evaluate): finger joints (humanoid51, three per
                                  finger) on fingertips found on the mesh (auto) or from the hand's shape
                                  (shape, a mitten), N fingers per hand (0-5: thumb, index, middle, ring, pinky
                                  kept in that order; auto alone: as many as the mesh shows), none (default)
                                  (fit, weights, rig: a figure that does not look like a humanoid - a
                                  quadruped, a machine, a BVH clip's bone boxes - is refused with the
                                  reason unless --force is given)
  rigsmith weights FILE --out OUT.json [--method {METHODS}|file] [--segmentation 3.2.1|3.2.2|3.2.4]
                 [--weight-params METHOD.KEY=VALUE,...] [--bind-part PART=JOINT,...]
                 [--use-file-skeleton] [--ends auto|...] [--template T] [--fingers F] [--facing F] [--resolution N]
                                  segment the mesh and compute skinning weights with a method of the table below
                                  for the fitted rig, or with --use-file-skeleton for the file's own skeleton;
                                  --method file writes the file's own weights; prints the diagnostics;
                                  --bind-part binds a part (name or number, as 'info' lists them) rigidly
                                  to a joint with any method; the report's "parts" table gives each part's
                                  binding, dominant joint and share, mean influences and rigidity
  rigsmith compare-weights FILE OUT.json
                                  compare weights from 'rigsmith weights --use-file-skeleton' with FILE's own:
                                  mean L1 per vertex, precision and recall (weight >= 0.05), mean and max
                                  vertex distance in % of height by LBS over the frames of FILE's longest
                                  animation (at most 200, evenly spaced), or over 20 random poses (+-45 deg)
                                  when it has none
  rigsmith evaluate FILE [--report R.json] [--resolution N] [--up auto|file|+y|...] [--facing auto|+z|...]
                    [--deform-joints auto|all|NAME,...] [--retarget-weights METHOD] [--fingers F]
                    [--weight-params METHOD.KEY=VALUE,...] [--methods all|default|ID,...]
                    [--rig-out RIG.json] [--weights-out PREFIX]
                                  score Rigsmith on a character an artist rigged: auto-rig the mesh alone
                                  (the orientation fit uses: --up file --facing +z unless given), say what
                                  'fit --ends auto' would do with it (rigged, warned, refused and why,
                                  failed), map the artist's joints to 16 canonical joints by name (Mixamo,
                                  CMU, Blender/Rigify, Unreal, Bip01) or hierarchy, report each joint's
                                  distance in % of height, whether the five end labels went to the right
                                  ends, and the standard benchmark's skeleton metrics (RigNet: CD-J2J,
                                  CD-J2B, CD-B2B, joint IoU, precision, recall in the normalised frame);
                                  then weights for the artist's skeleton with each --methods entry (default
                                  all) against the artist's: L1, precision, recall (weight >= 0.05) over the
                                  file's vertices, deformation in % of the longest side over 20 seeded random
                                  poses, and today's figures over the file's animations; --rig-out writes the
                                  fitted rig in the file's frame, --weights-out PREFIX.METHOD.json the weights
                                  in the file's vertex order (what the reference scorer reads); a file without
                                  a skeleton is scored for the fit's outcome only (no reference);
                                  --deform-joints auto|all|NAME,... says which artist joints may get weight
                                  (auto: those the file's weights use); the fit's options are fit's
                                  defaults (no fingers unless --fingers): the artist's skeleton is
                                  never read to choose them
)";
}

/// The usage of the batch evaluation, the benches, the pipeline commands and the common options.
std::string usageBatchAndPipeline()
{
    return R"(  rigsmith evaluate DIR|FILE...|@LIST [--out DIR] [--jobs N] [--timeout S] [--resume] [--keep]
                    [--groups A.txt,B.txt] [--methods all|default|ID,...] [the options above]
                                  the same over many files, each in its own process (--jobs at a time,
                                  default the cores; --timeout seconds per file, default 300), with a
                                  progress line; a crash, a hang or a refusal is recorded with its message
                                  and the run goes on; --out DIR (default a new folder in /tmp) gets
                                  ID.json per file, summary.json and summary.md (outcomes and reasons,
                                  skeleton metrics over the rigs written and IoU with a missing rig as 0,
                                  skinning per method, seconds per stage); --groups splits every table by
                                  the ids listed (one file stem a line); --resume skips files already
                                  reported; --keep also writes ID.rig.json and ID.weights.METHOD.json;
                                  --methods defaults to the default weight method here
  rigsmith bench bar             the thesis bar experiment (4.4): volume error per step and deformer beside
                                  Table 4.2, the candy-wrapper figure and the 0-720 deg twist continuity
  rigsmith bench skinning [--vertices N] [--threads T] [--repetitions R]
                                  median ns/vertex of every deformer ({DEFORMERS}; 4 influences,
                                  positions + normals; default 100000 vertices, 1 thread)
  rigsmith bench weights [--cell-size C] [--methods ID,...] [--repetitions R] [--resolution N]
                                  median seconds (wall and process CPU) of each weight method, segmentation
                                  included, the solid given, on the generated character polygonized at
                                  cell size C metres (default 0.0175: 22k vertices; 0.0117: 50k; 0.0058: 206k)
  rigsmith bench deform-quality FILE [--weights {METHODS}] [--deformers ID,...] [--report R.json] [--explain]
                   [--weight-params METHOD.KEY=VALUE,...] [--up U] [--facing F] [--ends ...] [--resolution N]
                   [--force] [--flip-against-bone]
                                  auto-rig FILE and pose it in the test poses (elbows, knees 120 deg,
                                  shoulders, hips raised 90 deg, forearms and wrists twisted +-90/180 deg):
                                  per deformer and pose the triangles stretched beyond 2x or flipped
                                  (turned over against their skin's local rotation, or their bone's), the
                                  largest stretch, the largest limb-segment volume change and the new
                                  self-intersecting triangle pairs near the posed joint
  rigsmith retarget RIG.json CLIP --out OUT.bvh|OUT.json [--rest auto|bind|frame0|zero] [--step N]
                  [--no-names] [--no-ground]
                                  retarget a clip onto the rig (thesis Ch. 5; CLIP: a .bvh or the animation of
                                  any rigged file, FBX, glTF, DAE, .X, MD5, ...): prints the joint mapping,
                                  frames, fps, foot-ground error and stage timings; writes a BVH of the rig's
                                  skeleton or JSON (per-frame local quaternions and root translation)
  rigsmith rig FILE --out character.glb|character.gltf|clip.bvh [--ends auto|head=ID,...] [--weights {METHODS}]
               [--segmentation 3.2.1|3.2.2|3.2.4] [--weight-params METHOD.KEY=VALUE,...] [--clip CLIP] [--rest auto|bind|frame0|zero]
               [--frame-step K] [--resolution N] [--template T] [--fingers F] [--facing +z|-z|+x|-x] [--use-file-skeleton] [--project P.rsproj [--save-weights]]
               [--force] [--strict] [--bind-part PART=JOINT,...]
                                  the whole pipeline headless: skeleton, labels, fit, weights, the clip
                                  retargeted onto the rig, exported as glTF 2.0 binary (mesh, skin,
                                  animation) or as BVH; --project also saves the session
  rigsmith export PROJECT.rsproj --out character.glb|character.gltf|clip.bvh [--frame-step K]
                                  restore a saved project (mesh, rig edits, weight options, clip) and export it
  glTF export options (rig, export):
               [--clips A.bvh,B.bvh] [--no-clip] [--frames FIRST:LAST] [--units source|metres] [--no-root-motion]
               [--names rigsmith|mixamo|unity|unreal|vrm]
                                  a character read from a file is written as the file has it (its meshes,
                                  vertex order, UVs, materials, textures; .gltf: images beside it); --clips
                                  adds clips as separate animations, --no-clip leaves the clip out, --frames
                                  keeps frames FIRST..LAST, --units metres scales to metres where the file
                                  says its unit, --no-root-motion keys rotations only, --names names the
                                  joints the way an engine's importer expects (Mixamo's mixamorig:, Unity's
                                  Humanoid, the UE5 mannequin's, VRM's humanoid bones; also the BVH's)
  rigsmith --help | --version

FILE is a path to any format Assimp reads (FBX, OBJ, glTF, Collada, ...), or
'default' for the bundled character, or 'default:POSE' with POSE one of
t, a, arms-down, knees-bent, sitting, reach, twist; '+skirt' or '+robe' dresses it in a long
skirt or a robe (default+skirt, default:t+robe).

Every command that loads a mesh (evaluate, its batch form and the window too) takes
--up auto|file|+y|-y|+z|-z|+x|-x (default file: the file's metadata; where the file does not
say, the shape where it is a figure on two feet detected with confidence >= 0.5, else
import's guess and a warning; auto: from the shape, warning below 0.8; an axis: the file's axis
that points up) and --facing auto|+z|-z|+x|-x (default +z; auto: detect from toes and face and
turn the character to face +Z). Every report states the orientation: source, confidence, reason.

Every command takes --report R.json and writes
  {"command", "input", "stages": [{"name", "seconds"}], "total_seconds", ...results}.
Errors: one line on stderr and a non-zero exit code.

)";
}

} // namespace

std::string usage()
{
    std::string text = usageSingleFile() + usageBatchAndPipeline();
    text = substitute(text, "{METHODS}", weightMethodIds("|"));
    text = substitute(text, "{DEFORMERS}", deformerIds(", "));
    return text + methodList();
}

void setWindowCommand(WindowCommand render) { g_render = render; }

int runWindowExecutable(int argc, char** argv)
{
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    const std::filesystem::path gui = (ec ? std::filesystem::path(argv[0]) : self).parent_path() / "rigsmith-gui";
    std::vector<char*> args(argv, argv + argc);
    const std::string path = gui.string();
    args[0] = const_cast<char*>(path.c_str());
    args.push_back(nullptr);
    ::execv(path.c_str(), args.data());
    std::cerr << "rigsmith: cannot start the window: " << path << " (" << std::strerror(errno)
              << "); it is built beside rigsmith (cmake --build build)\n";
    return 127;
}

bool isCliInvocation(const std::vector<std::string>& args)
{
    if (args.empty())
        return false;
    const std::string& first = args[0];
    if (isWindowOption(first))
        return false;
    if (first.rfind("-", 0) == 0 || std::find(commands.begin(), commands.end(), first) != commands.end())
        return true;
    if (std::any_of(args.begin() + 1, args.end(), isWindowOption))
        return false; // FILE --dock rig …: the window, options in any order
    // A single existing file (or a default spec) opens in the GUI; anything
    // else is a mistyped command, answered by the CLI with a clear message.
    std::error_code ec;
    return args.size() > 1 || !(isDefaultCharacterSpec(first) || std::filesystem::exists(first, ec));
}

int runCli(int argc, char** argv, const std::vector<std::string>& args)
{
    try {
        const std::string& command = args.at(0);
        const std::vector<std::string> rest(args.begin() + 1, args.end());
        if (command == "--help" || command == "-h") {
            std::cout << usage();
            return 0;
        }
        if (command == "--version") {
            std::cout << "rigsmith " << RIGSMITH_VERSION << '\n';
            return 0;
        }
        if (command == "info")
            return cmdInfo(rest);
        if (command == "render")
            return g_render ? g_render(argc, argv, rest) : runWindowExecutable(argc, argv);
        if (command == "skeleton")
            return cmdSkeleton(rest);
        if (command == "fit")
            return cmdFit(rest);
        if (command == "rig")
            return cmdRig(rest);
        if (command == "export")
            return cmdExport(rest);
        if (command == "weights")
            return cmdWeights(rest);
        if (command == "compare-weights")
            return cmdCompareWeights(rest);
        if (command == "evaluate")
            return cmdEvaluate(rest);
        if (command == "retarget")
            return cmdRetarget(rest);
        if (command == "bench")
            return cmdBench(rest);
        std::cerr << "rigsmith: '" << command << "' is neither a command nor a file (see rigsmith --help)\n";
        return 2;
    } catch (const Cancelled&) {
        std::cerr << "rigsmith: cancelled\n";
        return 130;
    } catch (const std::bad_alloc&) {
        std::cerr << "rigsmith: out of memory (the input is too large for this machine)\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "rigsmith: " << e.what() << '\n';
        return 1;
    }
}

} // namespace rig::app
