package crd

import (
	"net"
	"net/mail"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// formats are the string formats the API server keeps in a CRD's schema
// (apiextensions-apiserver's supported formats; any other is dropped
// before validation), by name without dashes, each with its check as
// kube-openapi's format registry makes it. isbn, isbn10, isbn13 and
// creditcard are kept unchecked (every string passes): their checksum
// rules are not carried here.
var formats = map[string]func(string) bool{
	"bsonobjectid": isHexLen(24),
	"uri":          func(s string) bool { _, err := url.ParseRequestURI(s); return err == nil },
	"email":        func(s string) bool { a, err := mail.ParseAddress(s); return err == nil && a.Address != "" },
	"hostname":     isHostname,
	"ipv4":         func(s string) bool { return parseIPSloppy(s) != nil && strings.Contains(s, ".") },
	"ipv6":         func(s string) bool { return net.ParseIP(s) != nil && strings.Contains(s, ":") },
	"cidr":         isCIDR,
	"mac":          func(s string) bool { _, err := net.ParseMAC(s); return err == nil },
	"uuid":         func(s string) bool { return rxUUID().MatchString(s) },
	"uuid3":        func(s string) bool { return rxUUID3().MatchString(s) },
	"uuid4":        func(s string) bool { return rxUUID4().MatchString(s) },
	"uuid5":        func(s string) bool { return rxUUID5().MatchString(s) },
	"isbn":         anyString,
	"isbn10":       anyString,
	"isbn13":       anyString,
	"creditcard":   anyString,
	"ssn":          func(s string) bool { return len(s) == 11 && rxSSN().MatchString(s) },
	"hexcolor":     func(s string) bool { return rxHexColor().MatchString(s) },
	"rgbcolor":     func(s string) bool { return rxRGBColor().MatchString(s) },
	"byte":         func(s string) bool { return rxBase64().MatchString(s) },
	"password":     anyString,
	"date":         isDate,
	"duration":     isDuration,
	"datetime":     isDateTime,
}

func anyString(string) bool { return true }

// lazyRegexp compiles expr on first use: most commands never check a
// format, and compiling these at start-up cost every command ~3 ms
// (the hostname rule's Unicode classes most of it).
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// The formats' rules, compiled on first use.
var (
	rxHostname = lazyRegexp(`^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$`)
	rxUUID     = lazyRegexp(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)
	rxUUID3    = lazyRegexp(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)
	rxUUID4    = lazyRegexp(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`)
	rxUUID5    = lazyRegexp(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`)
	rxSSN      = lazyRegexp(`^\d{3}[- ]?\d{2}[- ]?\d{4}$`)
	rxHexColor = lazyRegexp(`^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)
	rxRGBColor = lazyRegexp(`^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$`)
	rxBase64   = lazyRegexp(`^(?:[A-Za-z0-9+\/]{4})*(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=|[A-Za-z0-9+\/]{4})$`)
	rxTime     = lazyRegexp(`^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$`)
	rxDuration = lazyRegexp(`((\d+)\s*([A-Za-zµ]+))`)
)

func isHexLen(n int) func(string) bool {
	return func(s string) bool {
		if len(s) != n {
			return false
		}
		for _, c := range []byte(s) {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
		return true
	}
}

func isHostname(s string) bool {
	if !rxHostname().MatchString(s) || len(s) > 255 {
		return false
	}
	for _, p := range strings.Split(s, ".") {
		if len(p) > 63 {
			return false
		}
	}
	return true
}

// parseIPSloppy parses an IP address as Kubernetes' sloppy parser does:
// an IPv4 address's parts may have leading zeros (read as decimal).
func parseIPSloppy(s string) net.IP {
	if ip := net.ParseIP(s); ip != nil || !strings.Contains(s, ".") || strings.Contains(s, ":") {
		return ip
	}
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return nil
	}
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 10, 8)
		if err != nil || p == "" || strings.HasPrefix(p, "+") {
			return nil
		}
		parts[i] = strconv.FormatUint(n, 10)
	}
	return net.ParseIP(strings.Join(parts, "."))
}

func isCIDR(s string) bool {
	addr, bits, ok := strings.Cut(s, "/")
	if !ok {
		return false
	}
	if ip := parseIPSloppy(addr); ip != nil && strings.Contains(addr, ".") {
		addr = ip.String()
	}
	_, _, err := net.ParseCIDR(addr + "/" + bits)
	return err == nil
}

func isDate(s string) bool {
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

func isDateTime(s string) bool {
	if len(s) < 4 {
		return false
	}
	parts := strings.Split(strings.ToLower(s), "t")
	if len(parts) < 2 || !isDate(parts[0]) {
		return false
	}
	m := rxTime().FindStringSubmatch(parts[1])
	return m != nil && m[1] <= "23" && m[2] <= "59" && m[3] <= "59"
}

// durationUnits are the units a duration may name (its first the unit,
// a prefix of its last matching too), as kube-openapi reads them.
var durationUnits = [][]string{
	{"ns", "nano"}, {"us", "µs", "micro"}, {"ms", "milli"}, {"s", "sec"},
	{"m", "min"}, {"h", "hr", "hour"}, {"d", "day"}, {"w", "wk", "week"},
}

func isDuration(s string) bool {
	if _, err := time.ParseDuration(s); err == nil {
		return true
	}
	for _, m := range rxDuration().FindAllStringSubmatch(s, -1) {
		if _, err := strconv.Atoi(m[2]); err != nil {
			return false
		}
		unit := strings.ToLower(strings.TrimSpace(m[3]))
		for _, variants := range durationUnits {
			last := len(variants) - 1
			for i, v := range variants {
				if (i == last && strings.HasPrefix(unit, v)) || strings.EqualFold(v, unit) {
					return true
				}
			}
		}
	}
	return false
}
