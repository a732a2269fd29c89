package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/coredns/coredns/plugin/kubernetes"
	"github.com/coredns/coredns/plugin/kubernetes/object"
	api "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	meta "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
)

// The index names and functions of plugin/kubernetes/controller.go (unexported there, so copied).
const (
	svcNameNamespaceIndex = "ServiceNameNamespace"
	svcIPIndex            = "ServiceIP"
	svcExtIPIndex         = "ServiceExternalIP"
	epNameNamespaceIndex  = "EndpointNameNamespace"
	epIPIndex             = "EndpointsIP"
)

var errObj = errors.New("obj was not of the correct type")

func svcIPIndexFunc(obj any) ([]string, error) {
	svc, ok := obj.(*object.Service)
	if !ok {
		return nil, errObj
	}
	idx := make([]string, len(svc.ClusterIPs))
	copy(idx, svc.ClusterIPs)
	return idx, nil
}

func svcExtIPIndexFunc(obj any) ([]string, error) {
	svc, ok := obj.(*object.Service)
	if !ok {
		return nil, errObj
	}
	idx := make([]string, len(svc.ExternalIPs))
	copy(idx, svc.ExternalIPs)
	return idx, nil
}

func svcNameNamespaceIndexFunc(obj any) ([]string, error) {
	s, ok := obj.(*object.Service)
	if !ok {
		return nil, errObj
	}
	return []string{s.Index}, nil
}

func epNameNamespaceIndexFunc(obj any) ([]string, error) {
	s, ok := obj.(*object.Endpoints)
	if !ok {
		return nil, errObj
	}
	return []string{s.Index}, nil
}

func epIPIndexFunc(obj any) ([]string, error) {
	ep, ok := obj.(*object.Endpoints)
	if !ok {
		return nil, errObj
	}
	return ep.IndexIP, nil
}

// fakeController is the plugin's dnsController as its informers would hold the given objects once
// synced: each object passed through the informer's transform into an indexer with the real
// indexes. Its read methods are controller.go's, over these indexers. No pods are cached (`pods
// insecure` reads none) and no multicluster zone is configured.
type fakeController struct {
	svc, ep, ns cache.Indexer
}

func newFakeController(nss []*api.Namespace, svcs []*api.Service, slices []*discovery.EndpointSlice) (*fakeController, error) {
	f := &fakeController{
		svc: cache.NewIndexer(cache.DeletionHandlingMetaNamespaceKeyFunc, cache.Indexers{svcNameNamespaceIndex: svcNameNamespaceIndexFunc, svcIPIndex: svcIPIndexFunc, svcExtIPIndex: svcExtIPIndexFunc}),
		ep:  cache.NewIndexer(cache.DeletionHandlingMetaNamespaceKeyFunc, cache.Indexers{epNameNamespaceIndex: epNameNamespaceIndexFunc, epIPIndex: epIPIndexFunc}),
		ns:  cache.NewIndexer(cache.DeletionHandlingMetaNamespaceKeyFunc, cache.Indexers{}),
	}
	add := func(ix cache.Indexer, transform func(meta.Object) (meta.Object, error), o meta.Object) error {
		t, err := transform(o)
		if err != nil {
			return err
		}
		return ix.Add(t)
	}
	for _, o := range nss {
		if err := add(f.ns, object.ToNamespace, o); err != nil {
			return nil, err
		}
	}
	for _, o := range svcs {
		if err := add(f.svc, object.ToService, o); err != nil {
			return nil, err
		}
	}
	for _, o := range slices {
		if err := add(f.ep, object.EndpointSliceToEndpoints, o); err != nil {
			return nil, err
		}
	}
	return f, nil
}

func byIndex[T any](ix cache.Indexer, index, key string) []T {
	os, err := ix.ByIndex(index, key)
	if err != nil {
		return nil
	}
	var out []T
	for _, o := range os {
		if t, ok := o.(T); ok {
			out = append(out, t)
		}
	}
	return out
}

func list[T any](ix cache.Indexer) []T {
	var out []T
	for _, o := range ix.List() {
		if t, ok := o.(T); ok {
			out = append(out, t)
		}
	}
	return out
}

func (f *fakeController) ServiceList() []*object.Service             { return list[*object.Service](f.svc) }
func (f *fakeController) EndpointsList() []*object.Endpoints         { return list[*object.Endpoints](f.ep) }
func (f *fakeController) ServiceImportList() []*object.ServiceImport { return nil }
func (f *fakeController) SvcIndex(idx string) []*object.Service {
	return byIndex[*object.Service](f.svc, svcNameNamespaceIndex, idx)
}
func (f *fakeController) SvcIndexReverse(ip string) []*object.Service {
	return byIndex[*object.Service](f.svc, svcIPIndex, ip)
}
func (f *fakeController) SvcExtIndexReverse(ip string) []*object.Service {
	return byIndex[*object.Service](f.svc, svcExtIPIndex, ip)
}
func (f *fakeController) SvcImportIndex(string) []*object.ServiceImport { return nil }
func (f *fakeController) PodIndex(string) []*object.Pod                 { return nil }
func (f *fakeController) EpIndex(idx string) []*object.Endpoints {
	return byIndex[*object.Endpoints](f.ep, epNameNamespaceIndex, idx)
}
func (f *fakeController) EpIndexReverse(ip string) []*object.Endpoints {
	return byIndex[*object.Endpoints](f.ep, epIPIndex, ip)
}
func (f *fakeController) McEpIndex(string) []*object.MultiClusterEndpoints { return nil }

// GetNodeByName is only used for federation, which the Corefile does not configure.
func (f *fakeController) GetNodeByName(context.Context, string) (*api.Node, error) {
	return nil, errors.New("no nodes in this fake")
}

// GetNamespaceByName is controller.go's: the namespace informer's cache by key.
func (f *fakeController) GetNamespaceByName(name string) (*object.Namespace, error) {
	o, exists, err := f.ns.GetByKey(name)
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, fmt.Errorf("namespace not found")
	}
	ns, ok := o.(*object.Namespace)
	if !ok {
		return nil, fmt.Errorf("found key but not namespace")
	}
	return ns, nil
}

func (f *fakeController) Run()            {}
func (f *fakeController) HasSynced() bool { return true }
func (f *fakeController) Stop() error     { return nil }

// Modified is the SOA serial's source; the answers printed hold no SOA.
func (f *fakeController) Modified(kubernetes.ModifiedMode) int64 { return 1 }
