"""Writes PATH.xml and PATH.hosts: a SimGrid cluster of NODES nodes with RANKS_PER_NODE cores
each (rank r on node r // RANKS_PER_NODE), three node generations (node i's is i*3 // NODES:
relative speeds 1, 2, 4 times SPEED Gflop/s per core), one shared LINK_GBPS link per node into
a non-blocking switch, and a node's ranks talking over its 50 GB/s memory bus.

The switch is one link every route between nodes crosses, for its 1 us of latency. Its
bandwidth is at least twice what all node links together can carry, so it never limits a
flow: SimGrid's max-min solver gives the same rates with or without it. It is SHARED, not
FATPIPE: the solver recomputes a FATPIPE link's usage as a maximum over all its flows each
time it fixes one flow's rate, so one FATPIPE link under every inter-node flow made each
solve quadratic in the flows in flight, most of a 256-rank simulation's real time (the
simulated times are the same to the last digit printed).

usage: write_platform.py PATH NODES RANKS_PER_NODE SPEED LINK_GBPS
"""
import sys


def switch_gbps(nodes, link):
    """The switch's bandwidth: 10 Tb/s, or more when twice the node links' sum is more (a flow
    loads the links it crosses in both directions, SimGrid's cross-traffic): never a bottleneck."""
    return max(10000.0, 2.0 * nodes * link)


def main(path, nodes, per_node, speed, link):
    out = ['<?xml version="1.0"?>', '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
           '<platform version="4.1">', '  <zone id="cluster" routing="Full">']
    for i in range(nodes):
        out.append(f'    <host id="node-{i}" speed="{speed * (1, 2, 4)[i * 3 // nodes]}Gf" core="{per_node}"/>')
    for i in range(nodes):
        out.append(f'    <link id="node-{i}-link" bandwidth="{link}Gbps" latency="2us"/>')
        out.append(f'    <link id="node-{i}-bus" bandwidth="50GBps" latency="0.5us" sharing_policy="FATPIPE"/>')
    out.append(f'    <link id="switch" bandwidth="{switch_gbps(nodes, link)}Gbps" latency="1us"/>')
    for i in range(nodes):
        out.append(f'    <route src="node-{i}" dst="node-{i}"><link_ctn id="node-{i}-bus"/></route>')
        for j in range(i + 1, nodes):
            out.append(f'    <route src="node-{i}" dst="node-{j}"><link_ctn id="node-{i}-link"/>'
                       f'<link_ctn id="switch"/><link_ctn id="node-{j}-link"/></route>')
    out += ['  </zone>', '</platform>']
    with open(path + '.xml', 'w') as f:
        f.write('\n'.join(out) + '\n')
    with open(path + '.hosts', 'w') as f:
        f.write(''.join(f'node-{i}\n' * per_node for i in range(nodes)))


if __name__ == '__main__':
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]))
