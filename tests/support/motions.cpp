#include "tests/support/motions.h"

namespace rig::test {

Motion makeMotion(std::vector<std::string> names, std::vector<int> parents, const MatrixX3d& offsets, int frames)
{
    Motion m;
    m.names = std::move(names);
    m.parents = std::move(parents);
    m.offsets = offsets;
    m.channelStarts.push_back(0);
    for (int j = 0; j < m.jointCount(); ++j) {
        if (j == 0)
            for (Channel c : {Channel::Xposition, Channel::Yposition, Channel::Zposition})
                m.channels.push_back(c);
        for (Channel c : {Channel::Zrotation, Channel::Yrotation, Channel::Xrotation})
            m.channels.push_back(c);
        m.channelStarts.push_back(m.channelCount());
    }
    m.frameTime = 1.0 / 30.0;
    m.frames = MotionFrames::Zero(frames, m.channelCount());
    return m;
}

} // namespace rig::test
