#ifndef BLUETAPE_CPCAP_SHIM_H
#define BLUETAPE_CPCAP_SHIM_H
#include <pcap/pcap.h>
#include <stdio.h>
#endif
