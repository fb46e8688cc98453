#!/usr/bin/env python3
"""Regenerates topologies/bundled/{westmere,magnycours,opteron8218,haswell}.xml (hwloc v2 XML).

Each bundled machine starts as an hwloc synthetic description, exported to XML
by `lstopo-no-graphics -i "<description>" --of xml -`, and is then annotated
with what a synthetic description cannot express: the CPU model, the NIC with
its PCI path and locality, and the NUMA distance matrix (ACPI SLIT-like values).

What each machine models and where its figures come from (Intel ARK for the
Xeon X5650; AMD Opteron 6100 series documentation; the HPDC 2013 paper by
S. Li, T. Hoefler and M. Snir for the 32-core Magny-Cours node; the NUIOA
paper by S. Moreaud, B. Goglin and R. Namyst (EuroMPI 2010) for the
Opteron 8218 node; the hierarchical-communicators paper's Table 1 for the
Haswell node) is listed in
MACHINES below and copied into each file as Numacoll* info attributes of the
Machine object (visible with `lstopo-no-graphics -v`): hwloc's minimalistic
XML parser, used when the libxml2 plugin is missing, rejects XML comments.

The output is deterministic for a given hwloc version (2.9 when committed):
no host name, process name or time stamp is kept.

Usage: scripts/gen_bundled_topologies.py [OUTPUT_DIR]   (default topologies/bundled)
Check: lstopo-no-graphics -i topologies/bundled/westmere.xml --of console -v
"""

import pathlib
import re
import subprocess
import sys

# --- The machines -----------------------------------------------------------

WESTMERE = {
    "name": "westmere",
    "models": "2 x Intel Xeon X5650 (Westmere-EP, 6 cores, 2 hardware threads per core)",
    "sources": [
        "Intel ARK, Xeon X5650: 6 cores / 12 threads, 2.66 GHz, 12 MB L3 (Intel Smart Cache)",
        "Intel 64 and IA-32 Optimization Manual (Westmere): 32 KB L1d + 32 KB L1i, 256 KB L2 per core, 64 B lines",
        "PU numbering as Linux enumerates a 2-socket Westmere-EP: first threads 0-11, HT siblings 12-23",
        "Memory per NUMA node (12 GiB), the bridge PCI ids, the NIC subsystem id and GUIDs are representative, not measured",
    ],
    # PU os indexes in logical order: core c of package p has threads 6p+c and 12+6p+c.
    "synthetic": (
        "Package:2 NUMANode:1(memory=12884901888) L3Cache:1(size=12582912) "
        "L2Cache:6(size=262144) L1dCache:1(size=32768) L1iCache:1(size=32768) "
        "Core:1 PU:2(indexes=" + ",".join(f"{c},{c + 12}" for c in range(12)) + ")"
    ),
    "package_info": [
        ("CPUVendor", "GenuineIntel"),
        ("CPUFamilyNumber", "6"),
        ("CPUModelNumber", "44"),
        ("CPUModel", "Intel(R) Xeon(R) CPU X5650 @ 2.67GHz"),
    ],
    # The IOH (Intel 5520) hangs below package 0, so the HCA is local to NUMA node 0.
    "io_parent": 'type="Package" os_index="0"',
    "root_port": {"busid": "0000:00:03.0", "type": "0604 [8086:340a] [0000:0000] 22", "bus": "04"},
    "nic": {
        "busid": "0000:04:00.0",
        "type": "0c06 [15b3:673c] [15b3:0022] b0",
        "vendor": "Mellanox Technologies",
        "device": "MT26428 [ConnectX VPI PCIe 2.0 5GT/s - IB QDR / 10GigE]",
        "link_gbps": "4.000000",
        "guid": "0002:c903:0008:e7f2",
    },
    "numa_count": 2,
    "distance": lambda i, j: 10 if i == j else 20,
}


def magnycours_distance(i, j):
    """NUMA node i is die i % 2 of package i // 2; the 4 packages form a square
    of HyperTransport links where package p is diagonal to package p ^ 3."""
    if i == j:
        return 10
    pi, pj = i // 2, j // 2
    if pi == pj or (pi ^ pj) != 3:
        return 16
    return 22


MAGNYCOURS = {
    "name": "magnycours",
    "models": "4 x AMD Opteron 6136 (Magny-Cours, 2 dies x 4 cores per package), "
              "the 32-core node of the HPDC 2013 paper",
    "sources": [
        "S. Li, T. Hoefler, M. Snir, NUMA-Aware Shared-Memory Collective Communication for MPI, HPDC 2013: "
        "the 4-socket, 8-NUMA-node, 32-core AMD Opteron 6100 test node",
        "AMD Opteron 6100 Series (family 10h) product data: 64 KB L1d + 64 KB L1i, 512 KB L2 per core, "
        "6 MB L3 per die of which 1 MB holds the HT Assist probe filter (5 MB visible)",
        "NUMA distances: 10 local, 16 same package or linked package, 22 diagonal package (SLIT-like)",
        "Memory per NUMA node (8 GiB), the bridge PCI ids, the NIC subsystem id and GUIDs are representative, not measured",
    ],
    "synthetic": (
        "Package:4 Die:2 NUMANode:1(memory=8589934592) L3Cache:1(size=5242880) "
        "L2Cache:4(size=524288) L1dCache:1(size=65536) L1iCache:1(size=65536) Core:1 PU:1"
    ),
    "package_info": [
        ("CPUVendor", "AuthenticAMD"),
        ("CPUFamilyNumber", "16"),
        ("CPUModelNumber", "9"),
        ("CPUModel", "AMD Opteron(tm) Processor 6136"),
    ],
    # The SR5690 I/O hub is linked to die 0 of package 0 (NUMA node 0).
    "io_parent": 'type="Die" os_index="0"',
    "root_port": {"busid": "0000:00:0b.0", "type": "0604 [1002:5a1f] [0000:0000] 00", "bus": "04"},
    "nic": {
        "busid": "0000:04:00.0",
        "type": "0c06 [15b3:673c] [15b3:0022] b0",
        "vendor": "Mellanox Technologies",
        "device": "MT26428 [ConnectX VPI PCIe 2.0 5GT/s - IB QDR / 10GigE]",
        "link_gbps": "4.000000",
        "guid": "0002:c903:000a:41b6",
    },
    "numa_count": 8,
    "distance": magnycours_distance,
}

def square_of_four_distance(i, j):
    """Four sockets on a square of HyperTransport links: NUMA node i is
    diagonal (two hops) to node i ^ 3, one hop from the two others."""
    if i == j:
        return 10
    return 22 if (i ^ j) == 3 else 16


OPTERON8218 = {
    "name": "opteron8218",
    "models": "4 x AMD Opteron 8218 (Santa Rosa, 2 cores per package, one NUMA node per package), "
              "the cluster node of the NUIOA paper, its DDR InfiniBand NIC near NUMA node 1",
    "sources": [
        "S. Moreaud, B. Goglin, R. Namyst, Adaptive MPI Multirail Tuning for Non-Uniform Input/Output Access, "
        "EuroMPI 2010, section 5: quad-socket hosts with dual-core Opteron 8218 (2.6 GHz), four NUMA nodes, "
        "Mellanox MT25418 ConnectX DDR InfiniBand on a PCIe 8x slot behind the second I/O bus, near NUMA node 1",
        "AMD Opteron 8218 (K8 revision F): 64 KB L1d + 64 KB L1i and 1 MB L2 per core, no L3",
        "Sockets on a square of HyperTransport links (C. N. Keltcher et al., The AMD Opteron Processor for "
        "Multiprocessor Servers, IEEE Micro 2003): NUMA distances 10 local, 16 one hop, 22 diagonal (SLIT-like)",
        "PCIe 1.1 x8 = 2 GB/s per direction",
        "Memory per NUMA node (4 GiB), the bridge PCI ids, the NIC subsystem id and GUIDs are representative, not measured",
    ],
    "synthetic": (
        "Package:4 NUMANode:1(memory=4294967296) "
        "L2Cache:2(size=1048576) L1dCache:1(size=65536) L1iCache:1(size=65536) Core:1 PU:1"
    ),
    "package_info": [
        ("CPUVendor", "AuthenticAMD"),
        ("CPUFamilyNumber", "15"),
        ("CPUModelNumber", "65"),
        ("CPUModel", "Dual-Core AMD Opteron(tm) Processor 8218"),
    ],
    # The second I/O bus (nVidia/AMD 8132 tunnel) hangs off package 1: the HCA is local to NUMA node 1.
    "io_parent": 'type="Package" os_index="1"',
    "root_port": {"busid": "0000:40:01.0", "type": "0604 [1022:7458] [0000:0000] 12", "bus": "41"},
    "nic": {
        "busid": "0000:41:00.0",
        "type": "0c06 [15b3:634a] [15b3:0003] a0",
        "vendor": "Mellanox Technologies",
        "device": "MT25418 [ConnectX VPI PCIe 2.0 2.5GT/s - IB DDR / 10GigE]",
        "link_gbps": "2.000000",
        "guid": "0002:c903:0000:1a2c",
    },
    "numa_count": 4,
    "distance": square_of_four_distance,
}


HASWELL = {
    "name": "haswell",
    "models": "2 x Intel Xeon E5-2680 v3 (Haswell-EP, 12 cores, Cluster-on-Die: 2 NUMA nodes of 6 cores "
              "per package), the NTW10E5 node of the hierarchical-communicators paper",
    "sources": [
        "F. Tessier, E. Jeannot et al., Hardware topology management in MPI applications through hierarchical "
        "communicators, Table 1: NTW10E5, 2 sockets of E5-2680v3 at 2.6 GHz, 4 NUMA nodes of 6 cores, "
        "no Hyper-Threading, 32 KB L1, 256 KB L2, 15360 KB L3 per NUMA node, QPI, InfiniBand",
        "Intel ARK, Xeon E5-2680 v3: 12 cores, 30 MB L3; Cluster-on-Die splits each package into two "
        "NUMA nodes with half of the L3 each (Intel Xeon E5-2600 v3 Product Family uncore guide); "
        "a Die object stands for one Cluster-on-Die half",
        "NUMA distances as the BIOS reports them with Cluster-on-Die: 10 local, 11 same package, 21 other package",
        "InfiniBand FDR ConnectX-3 on PCIe 3.0 x8 (7.88 GB/s), attached to package 0: the paper names "
        "InfiniBand without its generation, so the card and its slot are representative",
        "Memory per NUMA node (16 GiB), the bridge PCI ids, the NIC subsystem id and GUIDs are representative, not measured",
    ],
    "synthetic": (
        "Package:2 Die:2 NUMANode:1(memory=17179869184) L3Cache:1(size=15728640) "
        "L2Cache:6(size=262144) L1dCache:1(size=32768) L1iCache:1(size=32768) Core:1 PU:1"
    ),
    "package_info": [
        ("CPUVendor", "GenuineIntel"),
        ("CPUFamilyNumber", "6"),
        ("CPUModelNumber", "63"),
        ("CPUModel", "Intel(R) Xeon(R) CPU E5-2680 v3 @ 2.50GHz"),
    ],
    "io_parent": 'type="Die" os_index="0"',
    "root_port": {"busid": "0000:00:02.0", "type": "0604 [8086:2f04] [0000:0000] 02", "bus": "04"},
    "nic": {
        "busid": "0000:04:00.0",
        "type": "0207 [15b3:1003] [15b3:0022] 00",
        "vendor": "Mellanox Technologies",
        "device": "MT27500 Family [ConnectX-3]",
        "link_gbps": "7.876923",
        "guid": "0002:c903:00f1:7c40",
    },
    "numa_count": 4,
    "distance": lambda i, j: 10 if i == j else (11 if i // 2 == j // 2 else 21),
}

MACHINES = [WESTMERE, MAGNYCOURS, OPTERON8218, HASWELL]

# --- XML building ------------------------------------------------------------


def synthetic_xml(description):
    """The synthetic topology exported by hwloc itself (v2 XML)."""
    result = subprocess.run(
        ["lstopo-no-graphics", "-i", description, "--of", "xml", "-"],
        check=True, capture_output=True, text=True)
    return result.stdout


def guid_parts(guid):
    return guid.replace(":", "")


def io_block(machine, first_gp_index, indent):
    """Host bridge > root port > NIC (PCI device) > ib0 (network) + mlx4_0 (OpenFabrics)."""
    port, nic = machine["root_port"], machine["nic"]
    guid = nic["guid"]
    raw = guid_parts(guid)
    # The IPoIB hardware address ends with the port GID (subnet prefix fe80::, then the port GUID).
    port_guid = f"{raw[0:4]}:{raw[4:8]}:{raw[8:12]}:{int(raw[12:16], 16) + 1:04x}"
    port_raw = guid_parts(port_guid)
    address = "80:00:00:48:fe:80:00:00:00:00:00:00:" + ":".join(
        port_raw[k:k + 2] for k in range(0, 16, 2))
    gp = iter(range(first_gp_index, first_gp_index + 5))
    s = " " * indent
    lines = [
        f'<object type="Bridge" gp_index="{next(gp)}" bridge_type="0-1" depth="0" bridge_pci="0000:[00-{port["bus"]}]">',
        f'  <object type="Bridge" gp_index="{next(gp)}" bridge_type="1-1" depth="1" bridge_pci="0000:[{port["bus"]}-{port["bus"]}]" pci_busid="{port["busid"]}" pci_type="{port["type"]}" pci_link_speed="{nic["link_gbps"]}">',
        f'    <object type="PCIDev" gp_index="{next(gp)}" pci_busid="{nic["busid"]}" pci_type="{nic["type"]}" pci_link_speed="{nic["link_gbps"]}">',
        f'      <info name="PCIVendor" value="{nic["vendor"]}"/>',
        f'      <info name="PCIDevice" value="{nic["device"]}"/>',
        f'      <object type="OSDev" gp_index="{next(gp)}" name="ib0" osdev_type="2">',
        f'        <info name="Address" value="{address}"/>',
        '        <info name="Port" value="1"/>',
        '      </object>',
        f'      <object type="OSDev" gp_index="{next(gp)}" name="mlx4_0" osdev_type="3">',
        f'        <info name="NodeGUID" value="{guid}"/>',
        f'        <info name="SysImageGUID" value="{guid}"/>',
        '        <info name="Port1State" value="4"/>',
        '        <info name="Port1LID" value="0x1"/>',
        '        <info name="Port1LMC" value="0"/>',
        f'        <info name="Port1GID0" value="fe80:0000:0000:0000:{port_guid}"/>',
        '      </object>',
        '    </object>',
        '  </object>',
        '</object>',
    ]
    return [s + line for line in lines]


def distances_block(machine):
    """A NUMALatency matrix indexed by NUMA node OS index (0..n-1 in synthetic topologies)."""
    n = machine["numa_count"]
    distance = machine["distance"]
    indexes = "".join(f"{i} " for i in range(n))
    lines = [f'  <distances2 type="NUMANode" nbobjs="{n}" kind="5" name="NUMALatency" indexing="os">',
             f'    <indexes length="{len(indexes)}">{indexes}</indexes>']
    values = [distance(i, j) for i in range(n) for j in range(n)]
    # hwloc writes 10 values per element; "length" is the text length it checks on import.
    for start in range(0, len(values), 10):
        text = "".join(f"{v} " for v in values[start:start + 10])
        lines.append(f'    <u64values length="{len(text)}">{text}</u64values>')
    lines.append("  </distances2>")
    return lines


def provenance_info(machine, indent):
    """What the file models and where its figures come from, as Machine info
    attributes: hwloc's minimalistic XML parser (used when the libxml2 plugin
    is not installed) rejects XML comments, so the header lives here instead."""
    figures = "; ".join(machine["sources"])
    entries = [
        ("NumacollMachine", f"{machine['name']}: {machine['models']}"),
        ("NumacollFigures", figures),
        ("NumacollGenerator", "scripts/gen_bundled_topologies.py (edit it and rerun, do not edit this file)"),
    ]
    for _, value in entries:
        assert not set(value) & set("<>&\"'"), f"keep XML-special characters out of: {value}"
    return [f'{" " * indent}<info name="{k}" value="{v}"/>' for k, v in entries]


def annotate(machine, xml):
    lines = xml.splitlines()
    out = []
    gp_indexes = [int(m) for m in re.findall(r'gp_index="(\d+)"', xml)]
    next_gp = max(gp_indexes) + 1
    io_parent_indent = None
    for line in lines:
        stripped = line.strip()
        indent = len(line) - len(stripped)
        if stripped.startswith('<info name="ProcessName"'):
            # Names the tool that exported the file, not the machine: replaced by provenance.
            out += provenance_info(machine, indent)
            continue
        if stripped == "</topology>":
            out += distances_block(machine)
            out.append(line)
            continue
        if io_parent_indent is not None and indent == io_parent_indent and stripped == "</object>":
            out += io_block(machine, next_gp, indent + 2)
            io_parent_indent = -1  # done
        out.append(line)
        if stripped.startswith('<object type="Package"'):
            out += [f'{" " * (indent + 2)}<info name="{k}" value="{v}"/>' for k, v in machine["package_info"]]
        if io_parent_indent is None and stripped.startswith(f'<object {machine["io_parent"]} '):
            io_parent_indent = indent
    if io_parent_indent != -1:
        raise SystemExit(f"{machine['name']}: I/O parent {machine['io_parent']} not found")
    return "\n".join(out) + "\n"


def main():
    root = pathlib.Path(__file__).resolve().parent.parent
    out_dir = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else root / "topologies" / "bundled"
    out_dir.mkdir(parents=True, exist_ok=True)
    for machine in MACHINES:
        text = annotate(machine, synthetic_xml(machine["synthetic"]))
        path = out_dir / f"{machine['name']}.xml"
        path.write_text(text)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
