//go:build ignore

// Command flood opens many connections from one loopback address to a
// running `pbem serve`'s web port and holds them, as finding 4 of issue
// 33 did, and reports what pbem keeps: the connections still open, and
// pbem's resident memory (VmRSS) and open descriptors, read from /proc,
// before, during and after the flood, with the load average beside each.
// During the flood it asks for a page from another loopback address and
// greets pbem's SMTP port (embedded), to show whether pbem still answers.
//
// It is bounded: loopback addresses only, at most 25,000 connections,
// held at most 2 minutes. Each connection sends one request (a 404 path)
// and reads its answer, then stays open until pbem closes it or the hold
// ends; the client needs a descriptor per connection (ulimit -n).
//
// Run by scripts/webflood: go run scripts/webflood.d/flood.go -addr
// 127.0.0.1:PORT -pid PID -n 3000 [-hold 20s] [-smtp 127.0.0.1:PORT]
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

const (
	maxConns = 25000
	maxHold  = 2 * time.Minute
	request  = "GET /s/aaaaaaaaaaaaaaaaaaaaaaaaaa HTTP/1.1\r\nHost: pbem.test\r\n\r\n"
)

func main() {
	addr := flag.String("addr", "", "pbem's web address, a loopback host:port")
	from := flag.String("from", "127.0.0.1", "the flood's source address (loopback)")
	other := flag.String("other", "127.0.0.2", "another client's source address (loopback)")
	smtp := flag.String("smtp", "", "pbem's SMTP (embedded) address to greet during the flood; empty: none")
	pid := flag.Int("pid", 0, "pbem's process id, for /proc")
	n := flag.Int("n", 3000, "connections to open (at most 25000)")
	hold := flag.Duration("hold", 20*time.Second, "how long from the first connection until all are closed (at most 2m)")
	workers := flag.Int("workers", 256, "connections opened at once")
	helper := flag.Bool("helper", false, "only open and hold, for a flood larger than one process's descriptors; the main process reports pbem's figures")
	flag.Parse()
	for _, a := range []string{*addr, *smtp} {
		if a != "" && !loopback(a) {
			log.Fatalf("flood: %q is not a loopback host:port", a)
		}
	}
	for _, ip := range []string{*from, *other} {
		if p := net.ParseIP(ip); p == nil || !p.IsLoopback() {
			log.Fatalf("flood: %q is not a loopback address", ip)
		}
	}
	if *addr == "" || *pid <= 0 || *n < 1 || *n > maxConns || *hold <= 0 || *hold > maxHold {
		log.Fatalf("flood: need -addr, -pid, 1 <= -n <= %d, 0 < -hold <= %v", maxConns, maxHold)
	}
	f := &flood{addr: *addr, from: *from}
	if *helper {
		start := time.Now()
		f.open(*n, *workers)
		fmt.Printf("helper: opened %d connections: %d answered (%s), %d refused at once\n", *n, f.answered.Load(), f.codes(), f.refused.Load())
		time.Sleep(time.Until(start.Add(*hold)))
		fmt.Printf("helper: %d still open at the end of the hold\n", f.alive.Load())
		f.closeAll()
		return
	}
	sample("before", *pid, 0)
	start := time.Now()
	peak := watchPeak(*pid)
	// Every 5 s, while the flood opens and holds: pbem's figures, and
	// whether it still answers another client and greets by SMTP.
	stop := make(chan struct{})
	reported := make(chan struct{})
	go func() {
		defer close(reported)
		t := time.NewTicker(5 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
			}
			sample(fmt.Sprintf("at %v", time.Since(start).Round(time.Second)), *pid, f.alive.Load())
			probePage(*addr, *other)
			if *smtp != "" {
				probeSMTP(*smtp)
			}
		}
	}()
	f.open(*n, *workers)
	fmt.Printf("opened %d connections in %v: %d answered (%s), %d refused at once\n",
		*n, time.Since(start).Round(time.Millisecond), f.answered.Load(), f.codes(), f.refused.Load())
	time.Sleep(time.Until(start.Add(*hold)))
	close(stop)
	<-reported
	sample("held", *pid, f.alive.Load())
	rss, fds := peak()
	fmt.Printf("peak while flooded: pbem rss %.1f MB, fds %d\n", float64(rss)/1024, fds)
	f.closeAll()
	time.Sleep(2 * time.Second)
	sample("after", *pid, 0)
}

// watchPeak reads pbem's VmRSS (kB) and descriptors every 100 ms until
// the returned function is called, which gives their highest values.
func watchPeak(pid int) func() (rssKB, fds int) {
	stop := make(chan struct{})
	done := make(chan struct{})
	var maxRSS, maxFDs int
	go func() {
		defer close(done)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			rss, fds := readProc(pid)
			maxRSS, maxFDs = max(maxRSS, rss), max(maxFDs, fds)
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	return func() (int, int) { close(stop); <-done; return maxRSS, maxFDs }
}

// readProc is pbem's VmRSS in kB and its open descriptors (-1: unknown).
func readProc(pid int) (rssKB, fds int) {
	rssKB, fds = -1, -1
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid)); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				rssKB, _ = strconv.Atoi(strings.Fields(v)[0])
			}
		}
	}
	if es, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid)); err == nil {
		fds = len(es)
	}
	return rssKB, fds
}

type flood struct {
	addr, from string
	answered   atomic.Int64
	refused    atomic.Int64
	alive      atomic.Int64 // connections pbem has not closed
	mu         sync.Mutex
	conns      []net.Conn
	byCode     map[int]int
}

// open opens n connections, workers at a time; each asks once and then
// waits in a goroutine for pbem to close it.
func (f *flood) open(n, workers int) {
	f.byCode = map[int]int{}
	jobs := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range jobs {
				f.one()
			}
		}()
	}
	for range n {
		jobs <- struct{}{}
	}
	close(jobs)
	wg.Wait()
}

func (f *flood) one() {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(f.from)}, Timeout: 10 * time.Second}
	c, err := d.Dial("tcp", f.addr)
	if err != nil {
		f.refused.Add(1)
		return
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(c)
	_, err = c.Write([]byte(request))
	var res *http.Response
	if err == nil {
		res, err = http.ReadResponse(r, nil)
	}
	if err != nil {
		f.refused.Add(1)
		c.Close()
		return
	}
	_, _ = r.Discard(int(max(res.ContentLength, 0)))
	_ = c.SetReadDeadline(time.Time{})
	f.answered.Add(1)
	f.alive.Add(1)
	f.mu.Lock()
	f.conns = append(f.conns, c)
	f.byCode[res.StatusCode]++
	f.mu.Unlock()
	go func() {
		_, _ = r.ReadByte() // returns when pbem closes, or closeAll does
		f.alive.Add(-1)
	}()
}

func (f *flood) codes() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var parts []string
	for code, k := range f.byCode {
		parts = append(parts, fmt.Sprintf("%d×%d", k, code))
	}
	return strings.Join(parts, " ")
}

func (f *flood) closeAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.conns {
		c.Close()
	}
}

// sample prints pbem's resident memory and descriptors and the load.
func sample(when string, pid int, open int64) {
	rss, fds := readProc(pid)
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("%-10s open %6d   pbem rss %6.1f MB   fds %6d   load %s\n", when, open, float64(rss)/1024, fds, strings.Join(strings.Fields(string(load))[:3], " "))
}

// probePage asks for a page from another address, as a player would.
func probePage(addr, from string) {
	start := time.Now()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 3 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err == nil {
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(3 * time.Second))
		var res *http.Response
		if _, err = c.Write([]byte(request)); err == nil {
			if res, err = http.ReadResponse(bufio.NewReader(c), nil); err == nil {
				fmt.Printf("  another client (%s): %d in %v\n", from, res.StatusCode, time.Since(start).Round(time.Millisecond))
				return
			}
		}
	}
	fmt.Printf("  another client (%s): no answer: %v\n", from, err)
}

// probeSMTP reads the greeting of pbem's SMTP server.
func probeSMTP(addr string) {
	c, err := net.DialTimeout("tcp", addr, 3*time.Second)
	if err == nil {
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(3 * time.Second))
		var line string
		if line, err = bufio.NewReader(c).ReadString('\n'); err == nil {
			fmt.Printf("  smtp: %s\n", strings.TrimSpace(line))
			return
		}
	}
	fmt.Printf("  smtp: no greeting: %v\n", err)
}

func loopback(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	ip := net.ParseIP(host)
	return err == nil && ip != nil && ip.IsLoopback()
}
