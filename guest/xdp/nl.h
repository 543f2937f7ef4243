/* SPDX-License-Identifier: GPL-2.0 */
/* Network namespaces, veth pairs and device counters, without iproute2. */
#ifndef XT_NL_H
#define XT_NL_H

#include <linux/if_link.h>

/* A new network namespace; the calling thread stays where it was. */
int ns_new(void);
/* Move the calling thread into a namespace (fd from ns_new, or ns_self). */
int ns_enter(int fd);
int ns_self(void);

/*
 * A veth pair: NAME_A (ifindex IDX_A) here, NAME_B (IDX_B) in the
 * namespace NS_B (-1: here), QUEUES rx and tx queues each.  Ifindexes are
 * chosen by the caller so that they are unique across namespaces.
 */
int veth_add(const char *name_a, int idx_a, const char *name_b, int idx_b,
	     int ns_b, int queues);
int link_up(int ifindex);
int link_down(int ifindex);
int link_del(int ifindex);
/*
 * Poll the NAPI instances of IFNAME, a device in namespace NS, each in a
 * kthread of its own (sysfs "threaded"); the device must have them.
 */
int napi_threaded(int ns, const char *ifname);
/* The device's struct rtnl_link_stats64 (IFLA_STATS64). */
int link_stats(int ifindex, struct rtnl_link_stats64 *st);
/* One ethtool statistic of a device by its string, e.g. "rx_queue_0_xdp_drops". */
int ethtool_stat(const char *ifname, const char *stat, unsigned long long *val);

#endif /* XT_NL_H */
